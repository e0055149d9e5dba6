package io.mikyu.engine.internal.txn;

import io.mikyu.engine.CommittedNotAppliedException;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.Record;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.BatchEncoder;
import io.mikyu.engine.internal.log.Retention;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.txn.PreparedBranches.Prepared;
import io.mikyu.engine.internal.write.AppendRequest;
import io.mikyu.engine.internal.write.GroupCommitWriter;
import io.mikyu.engine.internal.write.WriterMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Function;

/**
 * Commits, prepares and recovers transactions through the store's transaction log ({@code <data>/txn/}).
 *
 * <pre>
 *   commit:   validate → COMMIT(txId, ops, scanFrom) fsynced, then in the same writer cycle the writes to every
 *             queue (stamped txId) → memory updated → APPLIED(txId) once those writes are fsynced
 *   prepare:  validate → PREPARE(txId, xid, owner, ops) fsynced → settled tasks held
 *   decide:   COMMIT(txId) fsynced → apply as above  |  ROLLBACK(txId) fsynced → held tasks released
 *   recover:  replay the log; COMMIT without APPLIED → apply each queue's part that its log does not already
 *             contain (a batch stamped txId after scanFrom); PREPARE undecided → in doubt, its tasks held
 * </pre>
 *
 * The fsynced COMMIT is the atomic point: before it nothing was written anywhere (the writer puts the queue writes
 * into the files only after the COMMIT record's fsync, {@link GroupCommitWriter#appendThen}); after it recovery
 * completes the transaction. The COMMIT record (with the PREPARE record, for a prepared one) holds every operation,
 * so the queue writes need no fsync of their own before the commit returns: a power loss that takes them leaves
 * the COMMIT without APPLIED, and recovery writes them again. APPLIED is written only once they are fsynced (by a
 * later cycle or the flusher: {@link #confirmDurable}), so it never survives a power loss that its writes did not.
 * Log queues' appends are the exception: readers see them once written, so they are fsynced before the commit
 * returns (in the same cycle's second pass).
 */
public final class TransactionManager {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionManager.class);

    private final SegmentedLog txLog;
    private final GroupCommitWriter writer;
    private final EngineConfig engine;
    private final Function<String, TxParticipant> participants;
    private final PreparedBranches prepared = new PreparedBranches();
    /** Transaction-log offset of each unresolved transaction's first record: the log is kept from the lowest. */
    private final ConcurrentSkipListMap<Long, Long> unresolvedFrom = new ConcurrentSkipListMap<>();
    /** Committed transactions whose writes failed (a full disk, say): housekeeping tries them again. */
    private final Map<Long, TransactionRecord> unapplied = new ConcurrentHashMap<>();
    /** Applied transactions whose writes are not known to be fsynced yet: their APPLIED record waits for that. */
    private final Map<Long, List<WrittenUpTo>> awaitingSync = new ConcurrentHashMap<>();

    /** A write of a transaction: durable once {@code log} is fsynced up to {@code end} (exclusive). */
    private record WrittenUpTo(SegmentedLog log, long end) {
    }
    private long nextTxId = 1;
    private final WriterMetrics metrics;
    /** fsyncs PREPARE records written ahead; started by the first of them. */
    private AheadSyncer aheadSyncer;
    private boolean closed;

    public TransactionManager(SegmentedLog txLog, GroupCommitWriter writer, EngineConfig engine,
                              Function<String, TxParticipant> participants, WriterMetrics metrics) {
        this.txLog = txLog;
        this.writer = writer;
        this.engine = engine;
        this.participants = participants;
        this.metrics = metrics;
    }

    /** Stops what runs beside the writer (the fsyncs of records written ahead); before the log is closed. */
    public void close() {
        AheadSyncer syncer;
        synchronized (this) {
            closed = true;
            syncer = aheadSyncer;
        }
        if (syncer != null) {
            syncer.close();
        }
    }

    private synchronized AheadSyncer aheadSyncer() {
        if (closed) {
            throw new io.mikyu.engine.StoreClosedException("the store is closed");
        }
        if (aheadSyncer == null) {
            aheadSyncer = new AheadSyncer(txLog, metrics);
        }
        return aheadSyncer;
    }

    public SegmentedLog log() {
        return txLog;
    }

    // ----------------------------------------------------------------------------------------------- commit

    public void commit(List<TxOp> ops) {
        if (ops.isEmpty()) {
            return;
        }
        Map<String, List<TxOp>> byTarget = group(ops);
        validate(byTarget);
        long txId;
        synchronized (this) {
            txId = nextTxId++;
        }
        Map<String, Long> scanFrom = scanFrom(byTarget);
        TransactionRecord commit = new TransactionRecord(TransactionRecord.COMMIT, txId, null, null, scanFrom, ops);
        commitAndApply(commit, commit, byTarget);
    }

    /**
     * Writes the COMMIT record {@code record} and the writes of {@code whole} (the transaction with its operations)
     * behind it in the same writer cycle, then updates memory. If the writes cannot even be made, or a crash point
     * is set, the COMMIT goes alone first and the writes follow as before (the crash tests stop between the two).
     */
    private void commitAndApply(TransactionRecord record, TransactionRecord whole,
                                Map<String, List<TxOp>> byTarget) {
        long txId = whole.txId();
        List<TxParticipant.TxWrite> writes = null;
        if (!TxnCrashPoints.anyArmed()) {
            try {
                writes = writes(txId, byTarget);
            } catch (RuntimeException notNow) {
                writes = null; // committed all the same; applyOrDefer reports why the writes cannot be made
            }
        }
        if (writes == null) {
            unresolvedFrom.putIfAbsent(txId, writeRecord(record));
            TxnCrashPoints.reach(TxnCrashPoints.AFTER_COMMIT_RECORD);
            applyOrDefer(whole, byTarget);
            return;
        }
        List<AppendRequest> requests = requests(writes);
        long at = writer.appendThen(new AppendRequest(txLog, encode(record, System.currentTimeMillis()), true),
                requests);
        unresolvedFrom.putIfAbsent(txId, at);
        try {
            GroupCommitWriter.awaitAll(requests);
        } catch (RuntimeException failure) {
            throw deferred(whole, failure);
        }
        for (TxParticipant.TxWrite w : writes) {
            w.afterWrite().run();
        }
        appliedOnceDurable(txId, requests);
    }

    /** Applies a committed transaction; if that fails it stays committed and is applied later. */
    private void applyOrDefer(TransactionRecord commit, Map<String, List<TxOp>> byTarget) {
        List<AppendRequest> written;
        try {
            written = submit(writes(commit.txId(), byTarget));
        } catch (RuntimeException failure) {
            throw deferred(commit, failure);
        }
        appliedOnceDurable(commit.txId(), written);
    }

    private CommittedNotAppliedException deferred(TransactionRecord commit, RuntimeException failure) {
        unapplied.put(commit.txId(), commit);
        return new CommittedNotAppliedException("transaction " + commit.txId() + " is committed but its writes "
                + "failed (" + failure.getMessage() + "); it will be applied when they succeed, by housekeeping or "
                + "on the next open", failure);
    }

    public void prepare(byte[] xid, String owner, List<TxOp> ops) {
        ByteBuffer key = ByteBuffer.wrap(xid.clone());
        Prepared reservation = prepared.reserve(key, xid, owner, ops);
        try {
            Map<String, List<TxOp>> byTarget = group(ops);
            validate(byTarget);
            long txId;
            synchronized (this) {
                txId = nextTxId++;
            }
            Map<String, Long> scanFrom = scanFrom(byTarget);
            long now = engine.timeSource().wallMillis();
            long at = writeRecord(TransactionRecord.prepare(txId, xid, owner, scanFrom, ops), now);
            unresolvedFrom.put(txId, at);
            prepared.prepared(key, reservation, new Prepared(txId, xid.clone(), owner, now, ops, scanFrom));
            byTarget.forEach((target, part) -> participants.apply(target).hold(part));
        } catch (RuntimeException e) {
            prepared.release(key, reservation);
            throw e;
        }
    }

    /**
     * Starts writing the PREPARE record of {@code ops} as {@code xid} without waiting for it; the handle confirms,
     * commits or rolls it back ({@link io.mikyu.engine.PreparedAhead}). Checks what {@link #prepare} checks first,
     * with the same exceptions. Until confirmed, the xid is reserved (a prepare of it fails) but neither listed nor
     * decidable, and nothing is held.
     */
    public io.mikyu.engine.PreparedAhead prepareAhead(byte[] xid, String owner, List<TxOp> ops) {
        ByteBuffer key = ByteBuffer.wrap(xid.clone());
        Prepared reservation = prepared.reserve(key, xid, owner, ops);
        long txId = -1;
        try {
            Map<String, List<TxOp>> byTarget = group(ops);
            validate(byTarget);
            synchronized (this) {
                txId = nextTxId++;
            }
            Map<String, Long> scanFrom = scanFrom(byTarget);
            long now = engine.timeSource().wallMillis();
            byte[] batch = encode(TransactionRecord.prepare(txId, xid, owner, scanFrom, ops), now);
            AheadRecord ahead = new AheadRecord(this, key, reservation, txId, xid.clone(), owner, now, ops, byTarget,
                    scanFrom);
            // The record's offset is not known before it is written; the log's end now is below it, so the log is
            // kept from there (housekeeping never drops a record that may yet be decided).
            unresolvedFrom.put(txId, txLog.endOffset());
            // Written by the writer without an fsync, and fsynced on a thread of its own: the writer's fsyncs (the
            // COMMITs of other transactions, this one's if it commits in one phase) do not wait behind it.
            AheadSyncer syncer = aheadSyncer();
            long records = BatchDescriptor.lastOffsetDelta(batch) + 1;
            writer.appendAsync(new AppendRequest(txLog, batch, false, null, new AppendRequest.Callback() {
                @Override
                public void completed(long baseOffset) {
                    syncer.written(ahead, baseOffset, baseOffset + records);
                }

                @Override
                public void failed(RuntimeException cause) {
                    ahead.written.completeExceptionally(cause);
                }
            }));
            return ahead;
        } catch (RuntimeException e) {
            prepared.release(key, reservation);
            if (txId >= 0) {
                unresolvedFrom.remove(txId);
            }
            throw e;
        }
    }

    /** Phase one of a transaction written ahead: its record is durable and its acks still valid, or it fails. */
    void confirmAhead(AheadRecord a) {
        long at;
        try {
            at = awaitWritten(a);
        } catch (RuntimeException notWritten) {
            prepared.release(a.key, a.reservation);
            unresolvedFrom.remove(a.txId);
            throw notWritten;
        }
        try {
            // A lease may have ended while the record was written; a prepare must not hold what others now hold.
            validate(a.byTarget);
        } catch (RuntimeException stale) {
            prepared.release(a.key, a.reservation);
            rollBackRecord(a, stale);
            throw stale;
        }
        unresolvedFrom.put(a.txId, at);
        prepared.prepared(a.key, a.reservation, new Prepared(a.txId, a.xid, a.owner, a.preparedAt, a.ops, a.scanFrom));
        a.byTarget.forEach((target, part) -> participants.apply(target).hold(part));
    }

    /**
     * One-phase commit of a transaction written ahead: a COMMIT of the same transaction id carrying every
     * operation, so it stands whether or not the PREPARE record reached the disk, and it needs no wait for it (the
     * writer writes the PREPARE first: the same log, in order). If the COMMIT fails nothing more is written: a
     * ROLLBACK could follow a COMMIT that did reach the disk; a PREPARE left behind is in doubt after a restart, and
     * its manager, told the commit failed, rolls it back.
     */
    void commitAhead(AheadRecord a) {
        try {
            try {
                validate(a.byTarget);
            } catch (RuntimeException stale) {
                rollBackRecord(a, stale);
                throw stale;
            }
            TransactionRecord commit = new TransactionRecord(TransactionRecord.COMMIT, a.txId, null, null, a.scanFrom,
                    a.ops);
            commitAndApply(commit, commit, a.byTarget);
        } finally {
            prepared.release(a.key, a.reservation);
        }
    }

    /** Drops a transaction written ahead: a ROLLBACK behind its PREPARE in the log, fsynced. */
    void rollbackAhead(AheadRecord a) {
        prepared.release(a.key, a.reservation);
        rollBackRecord(a, null);
    }

    /**
     * Writes the ROLLBACK of a record written ahead (after it in the log, whatever became of it). If that fails the
     * record may be in doubt after a restart: the log keeps it, and the failure says so.
     */
    private void rollBackRecord(AheadRecord a, RuntimeException reason) {
        try {
            writeRecord(new TransactionRecord(TransactionRecord.ROLLBACK, a.txId, a.xid, null, Map.of(), List.of()));
        } catch (RuntimeException failed) {
            io.mikyu.engine.MikyuException e = new io.mikyu.engine.MikyuException("the PREPARE record written ahead "
                    + "for xid " + hex(a.xid) + " could not be rolled back (" + failed.getMessage() + "); after a "
                    + "restart it is in doubt until its transaction manager or an operator rolls it back", failed);
            if (reason != null) {
                e.addSuppressed(reason);
            }
            throw e;
        }
        unresolvedFrom.remove(a.txId);
    }

    private static long awaitWritten(AheadRecord a) {
        try {
            return a.written.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    public List<byte[]> preparedXids() {
        return prepared.xids();
    }

    /** The prepared, undecided transactions, oldest first. */
    public List<PreparedTransaction> inDoubt() {
        return prepared.inDoubt();
    }

    /** How many transactions are in doubt (a gauge). */
    public int inDoubtCount() {
        return prepared.count();
    }

    /** Seconds since the oldest in-doubt transaction was prepared; 0 when none is (a gauge). */
    public double oldestInDoubtSeconds() {
        long oldest = prepared.oldestPreparedAt();
        return oldest == Long.MAX_VALUE ? 0 : Math.max(0, engine.timeSource().wallMillis() - oldest) / 1000.0;
    }

    /**
     * The COMMIT record names the transaction only (its PREPARE holds the operations); the queue writes follow it in
     * the same writer cycle: a committed branch waits for one fsync.
     */
    public void commitPrepared(byte[] xid) {
        Prepared p = prepared.take(xid);
        commitAndApply(new TransactionRecord(TransactionRecord.COMMIT, p.txId(), xid, null, Map.of(), List.of()),
                new TransactionRecord(TransactionRecord.COMMIT, p.txId(), p.xid(), null, p.scanFrom(), p.ops()),
                group(p.ops()));
    }

    public void rollbackPrepared(byte[] xid) {
        Prepared p = prepared.take(xid);
        writeRecord(new TransactionRecord(TransactionRecord.ROLLBACK, p.txId(), xid, null, Map.of(), List.of()));
        group(p.ops()).forEach((target, part) -> participants.apply(target).release(part));
        unresolvedFrom.remove(p.txId());
    }

    // ------------------------------------------------------------------------------------------------ apply

    private List<TxParticipant.TxWrite> writes(long txId, Map<String, List<TxOp>> byTarget) {
        List<TxParticipant.TxWrite> writes = new ArrayList<>();
        byTarget.forEach((target, part) -> writes.addAll(participants.apply(target).prepareWrites(part, txId)));
        return writes;
    }

    private static List<AppendRequest> requests(List<TxParticipant.TxWrite> writes) {
        List<AppendRequest> requests = new ArrayList<>(writes.size());
        for (TxParticipant.TxWrite w : writes) {
            if (w.request() != null) {
                requests.add(w.request());
            }
        }
        return requests;
    }

    /**
     * Writes every request (in one group commit where they fit), then runs the memory updates in order; returns
     * the requests written.
     */
    private List<AppendRequest> submit(List<TxParticipant.TxWrite> writes) {
        List<AppendRequest> requests = requests(writes);
        if (TxnCrashPoints.armed(TxnCrashPoints.AFTER_FIRST_WRITE) && !requests.isEmpty()) {
            writer.appendAll(List.of(requests.get(0)));
            TxnCrashPoints.reach(TxnCrashPoints.AFTER_FIRST_WRITE);
        }
        writer.appendAll(requests);
        for (TxParticipant.TxWrite w : writes) {
            w.afterWrite().run();
        }
        return requests;
    }

    /**
     * The transaction's writes are in the files: once they are fsynced too its APPLIED record may be written.
     * Writes that were fsynced in their cycle need no wait.
     */
    private void appliedOnceDurable(long txId, List<AppendRequest> written) {
        List<WrittenUpTo> pending = new ArrayList<>(written.size());
        for (AppendRequest r : written) {
            if (!r.isSync() && r.target() instanceof SegmentedLog log) {
                byte[] batch = r.batch();
                pending.add(new WrittenUpTo(log, BatchDescriptor.baseOffset(batch)
                        + BatchDescriptor.lastOffsetDelta(batch) + 1));
            }
        }
        if (pending.isEmpty()) {
            resolved(txId);
        } else {
            awaitingSync.put(txId, pending);
        }
    }

    /**
     * Writes the APPLIED record of every transaction whose writes are now fsynced (the flusher calls this after
     * each round, housekeeping and close too). A log that was closed (deleted, or closed cleanly with the store)
     * no longer holds anything back.
     */
    public void confirmDurable() {
        for (Map.Entry<Long, List<WrittenUpTo>> e : awaitingSync.entrySet()) {
            boolean durable = true;
            for (WrittenUpTo w : e.getValue()) {
                if (w.log().isOpen() && w.log().durableEnd() < w.end()) {
                    durable = false;
                    break;
                }
            }
            if (durable && awaitingSync.remove(e.getKey(), e.getValue())) {
                resolved(e.getKey());
            }
        }
    }

    /**
     * The transaction's writes are durable: APPLIED tells recovery it need not look for them. Nobody waits for it
     * (a commit would wait for one more writer cycle): if it is lost, recovery looks, finds every write and
     * applies nothing twice.
     */
    private void resolved(long txId) {
        unresolvedFrom.remove(txId);
        byte[] batch = encode(new TransactionRecord(TransactionRecord.APPLIED, txId, null, null, Map.of(), List.of()),
                engine.timeSource().wallMillis());
        try {
            writer.appendAsync(new AppendRequest(txLog, batch, false, null, new AppendRequest.Callback() {
                @Override
                public void completed(long baseOffset) {
                }

                @Override
                public void failed(RuntimeException cause) {
                    LOG.debug("the APPLIED record of transaction {} was not written; recovery will check", txId, cause);
                }
            }));
        } catch (RuntimeException closing) {
            LOG.debug("the APPLIED record of transaction {} was not written; recovery will check", txId, closing);
        }
    }

    // --------------------------------------------------------------------------------------------- recovery

    /** Replays the transaction log: finishes committed transactions, restores prepared ones as in doubt. */
    public void recover() {
        Map<Long, TransactionRecord> open = new TreeMap<>();
        Map<Long, Long> firstRecord = new TreeMap<>();
        Map<Long, Long> preparedAt = new TreeMap<>();
        txLog.replay(txLog.startOffset(), (type, records) -> {
            if (type != BatchDescriptor.TYPE_TRANSACTION) {
                return;
            }
            for (Record r : records) {
                TransactionRecord t = TransactionRecord.decode(r.payload());
                nextTxId = Math.max(nextTxId, t.txId() + 1);
                firstRecord.putIfAbsent(t.txId(), r.offset());
                switch (t.kind()) {
                    case TransactionRecord.PREPARE -> {
                        open.put(t.txId(), t);
                        preparedAt.put(t.txId(), r.timestamp());
                    }
                    case TransactionRecord.COMMIT -> {
                        TransactionRecord before = open.get(t.txId());
                        open.put(t.txId(), before != null && before.kind() == TransactionRecord.PREPARE
                                ? new TransactionRecord(TransactionRecord.COMMIT, t.txId(), before.xid(), null,
                                        before.scanFrom(), before.ops())
                                : t);
                    }
                    case TransactionRecord.ROLLBACK, TransactionRecord.APPLIED -> {
                        open.remove(t.txId());
                        firstRecord.remove(t.txId());
                        preparedAt.remove(t.txId());
                    }
                    default -> throw new IllegalStateException("unknown transaction record kind " + t.kind());
                }
            }
        });
        for (TransactionRecord t : open.values()) {
            unresolvedFrom.put(t.txId(), firstRecord.get(t.txId()));
            if (t.kind() == TransactionRecord.COMMIT) {
                try {
                    completeRecovered(t);
                } catch (RuntimeException e) {
                    // one transaction that cannot be applied now must not keep the store from opening
                    LOG.error("recovery: committed transaction {} cannot be applied yet; housekeeping retries it",
                            t.txId(), e);
                    unapplied.put(t.txId(), t);
                }
            } else {
                prepared.restore(new Prepared(t.txId(), t.xid(), t.owner(),
                        preparedAt.get(t.txId()), t.ops(), t.scanFrom()));
                group(t.ops()).forEach((target, part) -> participants.apply(target).hold(part));
                LOG.warn("transaction {} (xid {}) is prepared and in doubt: commit or roll it back", t.txId(),
                        hex(t.xid()));
            }
        }
    }

    /**
     * Applies the writes of a committed transaction that its logs do not have yet: each write is one batch type in
     * one log, found by the transaction id in its producer-id field. Writes already there were replayed into
     * memory when their queue opened.
     */
    private void completeRecovered(TransactionRecord t) {
        List<TxParticipant.TxWrite> missing = new ArrayList<>();
        int total = 0;
        for (Map.Entry<String, List<TxOp>> e : group(t.ops()).entrySet()) {
            TxParticipant p = participants.apply(e.getKey());
            long from = t.scanFrom().getOrDefault(e.getKey(), 0L);
            for (TxParticipant.TxWrite w : p.prepareWrites(e.getValue(), t.txId())) {
                total++;
                if (w.request() == null || !p.txLog().containsProducer(from, t.txId(),
                        BatchDescriptor.type(w.request().batch()))) {
                    missing.add(w);
                }
            }
        }
        LOG.warn("recovery: completing committed transaction {} ({} of its {} writes missing)", t.txId(),
                missing.size(), total);
        appliedOnceDurable(t.txId(), submit(missing));
    }

    /** Applies deferred transactions, then drops transaction-log segments older than every unresolved one. */
    public void housekeeping() {
        confirmDurable();
        for (TransactionRecord t : new ArrayList<>(unapplied.values())) {
            try {
                completeRecovered(t);
                unapplied.remove(t.txId());
            } catch (RuntimeException e) {
                LOG.warn("committed transaction {} still cannot be applied: {}", t.txId(), e.toString());
            }
        }
        Map.Entry<Long, Long> lowest = null;
        for (Map.Entry<Long, Long> e : unresolvedFrom.entrySet()) {
            if (lowest == null || e.getValue() < lowest.getValue()) {
                lowest = e;
            }
        }
        long keepFrom = lowest == null ? txLog.endOffset() : lowest.getValue();
        try {
            Retention.dropSegmentsBelow(txLog, keepFrom);
        } catch (IOException e) {
            throw new UncheckedIOException("cleaning the transaction log", e);
        }
    }

    // ---------------------------------------------------------------------------------------------- helpers

    private static Map<String, List<TxOp>> group(List<TxOp> ops) {
        Map<String, List<TxOp>> byTarget = new LinkedHashMap<>();
        for (TxOp op : ops) {
            byTarget.computeIfAbsent(op.target(), t -> new ArrayList<>()).add(op);
        }
        return byTarget;
    }

    private void validate(Map<String, List<TxOp>> byTarget) {
        byTarget.forEach((target, part) -> participants.apply(target).validate(part));
    }

    private Map<String, Long> scanFrom(Map<String, List<TxOp>> byTarget) {
        Map<String, Long> from = new TreeMap<>();
        for (String target : byTarget.keySet()) {
            SegmentedLog log = participants.apply(target).txLog();
            if (log != null) {
                from.put(target, log.endOffset());
            }
        }
        return from;
    }

    private long writeRecord(TransactionRecord record) {
        return writeRecord(record, engine.timeSource().wallMillis());
    }

    /** Written and fsynced; {@code nowMillis} is the record's timestamp (a PREPARE's: its time of preparing). */
    private long writeRecord(TransactionRecord record, long nowMillis) {
        return writer.append(new AppendRequest(txLog, encode(record, nowMillis), true));
    }

    private byte[] encode(TransactionRecord record, long nowMillis) {
        byte[] batch = BatchEncoder.encode(List.of(new Entry(null, Headers.EMPTY, record.encode(),
                        Entry.NO_TIMESTAMP)), nowMillis, Integer.MAX_VALUE, Integer.MAX_VALUE,
                BatchDescriptor.TYPE_TRANSACTION, record.txId());
        if (batch.length > engine.maxBatchBytes()) {
            throw new io.mikyu.engine.RecordTooLargeException("transaction of " + record.ops().size()
                    + " operations is " + batch.length + " bytes, over the maximum batch size of "
                    + engine.maxBatchBytes() + " bytes");
        }
        return batch;
    }

    static String hex(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(bytes);
    }
}
