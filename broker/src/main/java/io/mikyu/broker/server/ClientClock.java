package io.mikyu.broker.server;

import io.mikyu.engine.ClientClockWindow;
import io.mikyu.engine.Entry;
import io.mikyu.engine.TimeSource;
import io.mikyu.protocol.TransactionOp;

import java.util.ArrayList;
import java.util.List;

/**
 * Entries a client sent as entries (APPEND, appends inside TX_COMMIT and TX_PREPARE) carry its clock, which may be
 * hours off; retention by age reads their timestamps. One outside {@link ClientClockWindow#MILLIS} of the
 * broker's clock loses it and gets the store's time of the append, as encoded batches do in the engine.
 */
final class ClientClock {

    private ClientClock() {
    }

    /** {@code entries} itself when every timestamp is kept (no copy), else a copy with those too far off cleared. */
    static List<Entry> bound(List<Entry> entries) {
        long now = TimeSource.system().wallMillis();
        List<Entry> out = null;
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            Entry kept = bound(e, now);
            if (kept != e && out == null) {
                out = new ArrayList<>(entries);
            }
            if (out != null) {
                out.set(i, kept);
            }
        }
        return out == null ? entries : out;
    }

    /** {@code ops} with the entries of its appends bounded as {@link #bound(List)} does. */
    static List<TransactionOp> boundAppends(List<TransactionOp> ops) {
        long now = TimeSource.system().wallMillis();
        List<TransactionOp> out = null;
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i) instanceof TransactionOp.Append a) {
                Entry kept = bound(a.entry(), now);
                if (kept != a.entry()) {
                    if (out == null) {
                        out = new ArrayList<>(ops);
                    }
                    out.set(i, new TransactionOp.Append(a.queue(), kept));
                }
            }
        }
        return out == null ? ops : out;
    }

    private static Entry bound(Entry e, long now) {
        if (e.timestamp() == Entry.NO_TIMESTAMP || ClientClockWindow.contains(e.timestamp(), now)) {
            return e;
        }
        return e.withTimestamp(Entry.NO_TIMESTAMP);
    }
}
