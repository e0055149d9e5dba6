package io.mikyu.engine.internal.task;

import io.mikyu.engine.Record;
import io.mikyu.engine.internal.files.DurableFiles;
import io.mikyu.engine.internal.format.TaskRecordDescriptor;
import io.mikyu.engine.internal.log.SegmentedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Takes, writes and restores a task queue's {@link LedgerCheckpoint}, so that reopening reads the held tasks'
 * records and the log's tail, not the whole backlog.
 *
 * <p>A checkpoint is the memory under the queue's lock, at a replay point {@code P}: the end of the batches whose
 * writes completed (new tasks joined first), lowered to the log end at which any decision still unapplied was taken
 * ({@link UnappliedDecisions}: its record may be below the end while the memory does not show it yet). Replaying
 * from {@code P} applies again records the memory shows already; each is idempotent on the state it leads to (a
 * lease, nack or ack sets, and a renewal or nack applies only to the lease it names), except task records, which
 * are skipped below the end of the tasks joined ({@code joinedEnd}: tasks join in log order). It is written only
 * once the log is fsynced past everything it speaks of, so a power loss never leaves a checkpoint naming records
 * that are gone; one that does (or is torn, or damaged) is ignored as a whole and the log replayed from its start.
 */
final class LedgerCheckpoints {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerCheckpoints.class);
    /** Records read at once to fetch held tasks: neighbours in the log share a read. */
    private static final int READ_RUN = 1024;

    private final LeaseLedger ledger;
    private final SegmentedLog log;
    private final Path file;
    /** Joins the tasks written but not joined yet; under the lock. */
    private final Runnable joinWritten;
    /** The end of the task records joined so far (all task records below it are in memory or finished). */
    private final LongSupplier joinedEnd;
    /**
     * Captured and encoded (the window's worth of tasks is not kept as objects), waiting for the log to be fsynced
     * past its end; housekeeping's thread only.
     */
    private Waiting waiting;
    /** What the last checkpoint written or restored says of the log (housekeeping's or the closing thread). */
    private volatile Summary current;

    /** A checkpoint's offsets and the lowest id it names: all that is kept of it once written or restored. */
    private record Summary(long replayFrom, long joinedEnd, long end, long lowestId) {
        static Summary of(LedgerCheckpoint c) {
            return new Summary(c.replayFrom(), c.joinedEnd(), c.end(), c.lowestId());
        }
    }

    private record Waiting(Summary summary, byte[] encoded) {
    }

    LedgerCheckpoints(LeaseLedger ledger, SegmentedLog log, Runnable joinWritten, LongSupplier joinedEnd) {
        this.ledger = ledger;
        this.log = log;
        this.file = log.dir().resolve(LedgerCheckpoint.FILE_NAME);
        this.joinWritten = joinWritten;
        this.joinedEnd = joinedEnd;
    }

    /** What a restore left: replay from {@code replayFrom}, skipping task records below {@code joinedEnd}. */
    record Restored(long replayFrom, long joinedEnd, long recordsRead) {
    }

    // ------------------------------------------------------------------------------------------------ taking

    /** The memory as a checkpoint, now. */
    LedgerCheckpoint capture() {
        LedgerCheckpoint[] out = new LedgerCheckpoint[1];
        ledger.withLock(() -> {
            // Read before joining: every task batch that ends below it has been handed to the join by then.
            long written = ledger.writtenEnd.get();
            joinWritten.run();
            long joined = joinedEnd.getAsLong();
            long replayFrom = Math.min(written, ledger.unapplied.floor());
            TaskQueueState state = ledger.state;
            List<LedgerCheckpoint.Held> held = new ArrayList<>(state.heldCount());
            state.forEachTask(e -> {
                if (!e.isTransient()) {
                    held.add(heldOf(e));
                }
            });
            held.sort(Comparator.comparingLong(LedgerCheckpoint.Held::id));
            ColdBacklog cold = state.coldBacklog();
            long[][] runs = cold == null ? emptyRuns() : cold.snapshot();
            out[0] = new LedgerCheckpoint(replayFrom, joined, Math.max(written, joined), state.lastLease(),
                    runs[0], runs[1], runs[2], runs[3], held.toArray(new LedgerCheckpoint.Held[0]));
        });
        return out[0];
    }

    /**
     * A task as a checkpoint keeps it. One leaving (being acked or dead-lettered) is kept as leased: if its record
     * is in the replayed tail it finishes there, if not its lease runs out and the rules apply again.
     */
    private static LedgerCheckpoint.Held heldOf(TaskEntry e) {
        TaskEntry.State s = e.state == TaskEntry.State.LEAVING ? TaskEntry.State.LEASED : e.state;
        return new LedgerCheckpoint.Held(e.id, s, e.attempts, e.visibleAt, e.lease, e.leaseUntil, e.leaseRanOut,
                e.lastReason);
    }

    private static long[][] emptyRuns() {
        return new long[][] {new long[ColdBacklog.LEVELS], new long[ColdBacklog.LEVELS],
                new long[ColdBacklog.LEVELS], new long[0]};
    }

    /**
     * Housekeeping: takes a checkpoint if the log moved since the last one, and writes the one taken once the log
     * is fsynced past its end (usually by the next run).
     */
    synchronized void housekeeping() throws IOException {
        if (!log.isOpen() || log.failure() != null) {
            return;
        }
        if (waiting == null && !upToDate()) {
            LedgerCheckpoint c = capture();
            waiting = new Waiting(Summary.of(c), c.encode());
        }
        if (waiting != null && log.durableEnd() >= waiting.summary().end() && log.isOpen()) {
            write(waiting.summary(), waiting.encoded());
            waiting = null;
        }
    }

    /** Clean close, on the writer thread (nothing is being written): a checkpoint of the final state. */
    synchronized void close() {
        if (!log.isOpen() || log.failure() != null) {
            return;
        }
        try {
            LedgerCheckpoint c = capture();
            Summary s = Summary.of(c);
            if (current != null && current.end() == s.end() && current.replayFrom() == s.replayFrom()
                    && current.joinedEnd() == s.joinedEnd()) {
                return; // nothing changed since the last one
            }
            if (log.durableEnd() < c.end()) {
                log.force();
            }
            if (log.durableEnd() >= c.end()) {
                write(s, c.encode());
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("{}: no checkpoint written at close; the next open replays its log", log.describe(), e);
        }
    }

    /** The lowest id the checkpoint on disk names: the log from there on must stay for it to be used. */
    long keepFrom() {
        Summary c = current;
        return c == null ? Long.MAX_VALUE : c.lowestId();
    }

    private boolean upToDate() {
        Summary c = current;
        long written = ledger.writtenEnd.get();
        return c != null && c.end() >= written && c.replayFrom() >= written;
    }

    private void write(Summary s, byte[] encoded) throws IOException {
        DurableFiles.write(file, encoded);
        current = s;
    }

    // --------------------------------------------------------------------------------------------- restoring

    /**
     * Restores the state of the checkpoint file into the (empty) ledger, or returns {@code null} with the state
     * untouched if there is none that can be trusted whole: then the log is replayed from its start.
     */
    Restored restore(long wallToSteady) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            LOG.warn("{}: its checkpoint cannot be read ({}); replaying its whole log", log.describe(), e.toString());
            return null;
        }
        LedgerCheckpoint c;
        try {
            c = LedgerCheckpoint.decode(bytes);
        } catch (IllegalArgumentException e) {
            LOG.warn("{}: its checkpoint is damaged ({}); replaying its whole log", log.describe(), e.getMessage());
            return null;
        }
        String unusable = unusable(c);
        if (unusable != null) {
            LOG.info("{}: its checkpoint is not used ({}); replaying its whole log", log.describe(), unusable);
            return null;
        }
        long[] read = new long[1];
        List<TaskEntry> entries = entries(c, wallToSteady, read);
        if (entries == null) {
            return null;
        }
        ledger.withLock(() -> {
            TaskQueueState state = ledger.state;
            for (TaskEntry e : entries) {
                state.restore(e);
            }
            state.restoreLastLease(c.lastLease());
            if (state.coldBacklog() != null) {
                state.coldBacklog().restore(c.coldFrom(), c.coldCount(), c.coldLast(), c.ahead());
            }
        });
        current = Summary.of(c);
        return new Restored(Math.max(c.replayFrom(), log.startOffset()), c.joinedEnd(), read[0]);
    }

    /** Why {@code c} cannot stand for this log, or {@code null}. */
    private String unusable(LedgerCheckpoint c) {
        if (c.end() > log.endOffset()) {
            return "it speaks of the log up to " + c.end() + ", which ends at " + log.endOffset();
        }
        if (c.lowestId() < log.startOffset()) {
            return "it names task " + c.lowestId() + ", below the log's start " + log.startOffset();
        }
        if (c.coldTotal() > 0 && ledger.state.coldBacklog() == null) {
            return "it counts tasks in the log only, and this queue has no window";
        }
        return null;
    }

    /** The held tasks, from their records; {@code null} (logged) if one is not in the log. */
    private List<TaskEntry> entries(LedgerCheckpoint c, long wallToSteady, long[] read) {
        LedgerCheckpoint.Held[] held = c.held();
        List<TaskEntry> out = new ArrayList<>(held.length);
        List<Record> run = List.of();
        int at = 0;
        for (int i = 0; i < held.length; i++) {
            LedgerCheckpoint.Held h = held[i];
            while (at < run.size() && run.get(at).offset() < h.id()) {
                at++;
            }
            if (at >= run.size()) {
                run = log.read(h.id(), span(held, i), Long.MAX_VALUE);
                read[0] += run.size();
                at = 0;
            }
            Record r = at < run.size() ? run.get(at) : null;
            if (r == null || r.offset() != h.id() || r.key() == null
                    || r.key().length < TaskRecordDescriptor.META_LENGTH) {
                LOG.warn("{}: its checkpoint holds task {}, which has no task record in the log; replaying its whole"
                        + " log", log.describe(), h.id());
                return null;
            }
            TaskRecordDescriptor.Meta meta = TaskRecordDescriptor.Meta.decode(r.key());
            TaskEntry e = new TaskEntry(h.id(), meta.priority(), r.timestamp(), meta.deliverAt(), meta.expiresAt(),
                    r.headers(), wallToSteady);
            e.state = h.state();
            e.attempts = h.attempts();
            e.visibleAt = h.visibleAt();
            e.lease = h.lease();
            e.leaseUntil = h.leaseUntil();
            e.leaseRanOut = h.leaseRanOut();
            e.lastReason = h.lastReason();
            out.add(e);
        }
        return out;
    }

    /** Records to read from held task {@code i} on so that one read covers its neighbours within a run. */
    private static int span(LedgerCheckpoint.Held[] held, int i) {
        long first = held[i].id();
        int j = i;
        while (j + 1 < held.length && held[j + 1].id() - first < READ_RUN) {
            j++;
        }
        return (int) (held[j].id() - first + 1);
    }

    /** For tests: whether a checkpoint file is present. */
    boolean exists() {
        return Files.exists(file);
    }

    static String describe(LedgerCheckpoint c) {
        return "checkpoint[replayFrom=" + c.replayFrom() + ", joinedEnd=" + c.joinedEnd() + ", end=" + c.end()
                + ", held=" + c.held().length + ", cold=" + Arrays.stream(c.coldCount()).sum() + "]";
    }
}
