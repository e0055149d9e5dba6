package io.mikyu.engine.internal.txn;

/**
 * Fault injection for crash tests (system property {@code mikyu.test.txnCrashPoint}): {@code after-commit-record}
 * halts the process once a COMMIT record is durable, {@code after-first-write} once the first queue of a
 * transaction has been written. Read once; unset in production, where the checks cost a null test.
 */
final class TxnCrashPoints {

    static final String AFTER_COMMIT_RECORD = "after-commit-record";
    static final String AFTER_FIRST_WRITE = "after-first-write";
    private static final String ARMED = System.getProperty("mikyu.test.txnCrashPoint");

    private TxnCrashPoints() {
    }

    static boolean anyArmed() {
        return ARMED != null;
    }

    static boolean armed(String point) {
        return point.equals(ARMED);
    }

    /** Halts the process, as kill -9 would, if {@code point} is the one armed. */
    static void reach(String point) {
        if (armed(point)) {
            Runtime.getRuntime().halt(137);
        }
    }
}
