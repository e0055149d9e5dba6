package io.mikyu.engine;

/**
 * A log record read as a task, as shared groups and in-memory topic cursors deliver records: its scheduling
 * headers ({@link SharedGroup#PRIORITY_HEADER}, {@link SharedGroup#DELIVER_AT_HEADER},
 * {@link SharedGroup#EXPIRES_AT_HEADER}, decimal text) and the record as a {@link TaskView} for filters. A missing
 * or malformed header reads as its default: a bad header must not stop a group.
 */
public final class RecordScheduling {

    private RecordScheduling() {
    }

    /** The record's priority, 0-9 (higher first); {@link Task#DEFAULT_PRIORITY} if none. */
    public static int priority(Record r) {
        return Math.max(0, Math.min(9, (int) number(r, SharedGroup.PRIORITY_HEADER, Task.DEFAULT_PRIORITY)));
    }

    /** The epoch millis before which the record is not delivered; 0 if none. */
    public static long deliverAt(Record r) {
        return Math.max(0, number(r, SharedGroup.DELIVER_AT_HEADER, 0));
    }

    /** The epoch millis after which the record is dropped undelivered; 0 if none. */
    public static long expiresAt(Record r) {
        return Math.max(0, number(r, SharedGroup.EXPIRES_AT_HEADER, 0));
    }

    /** The record as a filter sees it before any delivery: its offset as id, the given priority and expiry. */
    public static TaskView view(Record r, int priority, long expiresAt) {
        return new TaskView() {
            @Override
            public long id() {
                return r.offset();
            }

            @Override
            public int priority() {
                return priority;
            }

            @Override
            public Headers headers() {
                return r.headers();
            }

            @Override
            public int attempts() {
                return 0;
            }

            @Override
            public long enqueuedAt() {
                return r.timestamp();
            }

            @Override
            public long expiresAt() {
                return expiresAt;
            }
        };
    }

    private static long number(Record r, String header, long otherwise) {
        String text = r.headers().getString(header);
        if (text == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
