package io.mikyu.engine;

import java.util.List;

/**
 * What opening the store found and did. Empty after a clean shutdown.
 *
 * @param events one line per action, each naming the file and byte position
 */
public record RecoveryReport(List<Event> events, long recoveryMillis) {

    public enum Kind {
        /** An incomplete write at the end of a file was cut off. */
        TORN_TAIL_TRUNCATED,
        /** Damage before the end of a file: the file was copied to quarantine and cut before the damage. */
        CORRUPTION_QUARANTINED,
        /** An index did not match its segment and was rebuilt from it. */
        INDEX_REBUILT,
        /** The active segment was scanned because the store was not closed cleanly. */
        UNCLEAN_SHUTDOWN_SCAN,
        /**
         * A queue's (or shared group's) {@code queue.conf} is missing its content or unreadable: the queue was not
         * opened and its files were left as they are; its name stays taken until the file is restored.
         */
        QUEUE_QUARANTINED
    }

    public record Event(Kind kind, String file, long position, String detail) {
        @Override
        public String toString() {
            return kind + " " + file + " at byte " + position + ": " + detail;
        }
    }

    public boolean isClean() {
        return events.stream().noneMatch(e -> e.kind() == Kind.CORRUPTION_QUARANTINED
                || e.kind() == Kind.TORN_TAIL_TRUNCATED || e.kind() == Kind.QUEUE_QUARANTINED);
    }
}
