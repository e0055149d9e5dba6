package io.mikyu.bench.xa;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a worker's transactions spend their time: nanoseconds per phase, added up over the measured transactions
 * (one instance per worker thread, so no sharing).
 */
final class Phases {

    static final int BEGIN = 0;
    static final int START_SQL = 1;
    static final int START_JMS = 2;
    static final int INSERT = 3;
    static final int SEND = 4;
    static final int END_SQL = 5;
    static final int END_JMS = 6;
    static final int PREPARE_SQL = 7;
    static final int PREPARE_JMS = 8;
    static final int COMMIT_SQL = 9;
    static final int COMMIT_JMS = 10;
    /** All of tm.commit(); the transaction manager's own share is this less the prepares and commits. */
    static final int TM_COMMIT = 11;
    static final String[] NAMES = {"begin", "startSql", "startJms", "insert", "send", "endSql", "endJms",
            "prepareSql", "prepareJms", "commitSql", "commitJms", "tmCommit"};

    private final long[] nanos = new long[NAMES.length];
    private final long[] current = new long[NAMES.length];

    /** Called on the worker's thread (Narayana prepares and commits on the committing thread). */
    void add(int phase, long n) {
        current[phase] += n;
    }

    /** The transaction is over: its phases count if it was measured. */
    void endTransaction(boolean measured) {
        for (int i = 0; i < nanos.length; i++) {
            if (measured) {
                nanos[i] += current[i];
            }
            current[i] = 0;
        }
    }

    void addAll(Phases other) {
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] += other.nanos[i];
        }
    }

    /** Mean microseconds per transaction of each phase, with the transaction manager's own share as tmLog. */
    Map<String, Double> perTransaction(long transactions) {
        Map<String, Double> m = new LinkedHashMap<>();
        if (transactions == 0) {
            return m;
        }
        for (int i = 0; i < nanos.length; i++) {
            if (i != TM_COMMIT) {
                m.put(NAMES[i], XaBench.round(nanos[i] / 1e3 / transactions, 1));
            }
        }
        long resources = nanos[PREPARE_SQL] + nanos[PREPARE_JMS] + nanos[COMMIT_SQL] + nanos[COMMIT_JMS];
        m.put("tmLog", XaBench.round((nanos[TM_COMMIT] - resources) / 1e3 / transactions, 1));
        return m;
    }
}
