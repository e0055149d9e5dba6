package io.mikyu.engine.internal.store;

import io.mikyu.engine.LargeBody;
import io.mikyu.engine.internal.format.RecordSink;
import io.mikyu.engine.internal.log.SegmentedLog;

import java.util.Collection;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The large bodies a log queue's retained records name, by offset: what the sweep asks a log for. A body is live
 * while a retained record names it, whichever subscriptions have read it; retention moving the log's start, and
 * compaction removing a record, end that.
 *
 * <p>Filled by the sweep itself, which reads the headers of the records appended since its last pass (every path
 * that appends, a batch, an encoded batch from a broker's client, a transaction's commit or its recovery, is seen
 * the same way, and the append path pays nothing). After an open the first pass reads the whole log, unless the
 * store has no body at all: then nothing appended so far can name one ({@link #noneBelow}).
 */
final class LogBodies {

    /** Records read per step of a pass, so a pass over a long log holds no large list. */
    private static final int STEP = 4096;

    private final NavigableMap<Long, String> byOffset = new ConcurrentSkipListMap<>();
    /** Every record below this was read (guarded by this). */
    private long scannedTo;

    /**
     * Records below {@code end} name no body that exists: the sweep saw an empty bodies directory after reading
     * {@code end}, and a record names a body only once it is published.
     */
    synchronized void noneBelow(long end) {
        scannedTo = Math.max(scannedTo, end);
    }

    /** Reads the records appended since the last pass and adds the ids the retained records name to {@code into}. */
    synchronized void collectInto(SegmentedLog log, Collection<String> into) {
        long start = log.startOffset();
        byOffset.headMap(start).clear();
        long from = Math.max(scannedTo, start);
        long end = log.endOffset();
        while (from < end) {
            long next = log.scan(from, RecordSink.toHandler(view -> {
                String id = view.headers().getString(LargeBody.ID_HEADER);
                if (id != null) {
                    byOffset.put(view.offset(), id);
                }
            }, STEP));
            if (next <= from) {
                break;
            }
            from = next;
        }
        scannedTo = Math.max(scannedTo, Math.min(from, end));
        if (log.config().compacted()) {
            dropCompacted(log);
        }
        into.addAll(byOffset.values());
    }

    /** Bodies named by records still in the log (few: one per large message retained). */
    int size() {
        return byOffset.size();
    }

    private void dropCompacted(SegmentedLog log) {
        for (Map.Entry<Long, String> e : byOffset.entrySet()) {
            long offset = e.getKey();
            boolean[] present = {false};
            log.scan(offset, RecordSink.toHandler(view -> present[0] = view.offset() == offset, 1));
            if (!present[0]) {
                byOffset.remove(offset);
            }
        }
    }
}
