package io.mikyu.engine;

/** The kind of a queue, which is also the top-level folder it lives in under the data directory. */
public enum QueueKind {
    /** Append-only streams read by offset, with consumer groups, retention and compaction. */
    LOG("log"),
    /** At-least-once work queues with leases, acks and dead letters. */
    TASK("task");

    private final String directory;

    QueueKind(String directory) {
        this.directory = directory;
    }

    /** The folder name under the data directory: {@code log} or {@code task}. */
    public String directory() {
        return directory;
    }

    /** Parses {@code log} or {@code task}, case-insensitively. */
    public static QueueKind parse(String text) {
        for (QueueKind kind : values()) {
            if (kind.directory.equalsIgnoreCase(text) || kind.name().equalsIgnoreCase(text)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown queue kind '" + text + "' (expected log or task)");
    }
}
