package io.mikyu.engine.spi;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.PreparedAhead;
import io.mikyu.engine.Task;
import io.mikyu.engine.Transaction;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@link Transaction} a caller holds, for implementations of {@link io.mikyu.engine.Mikyu}: it collects the
 * operations and hands them over whole at commit or prepare, as nothing is written before then. It keeps the rules
 * a caller sees: open until committed, rolled back or prepared; after that every operation but {@link #close()} is
 * refused; closing an open one rolls it back.
 *
 * <p>A subclass says how each operation is recorded ({@code O}: the store's own record, or a request's) and how a
 * commit or a prepare is carried out.
 *
 * @param <O> one recorded operation
 */
public abstract class BufferedTransaction<O> implements Transaction {

    private final List<O> ops = new ArrayList<>();
    private boolean finished;

    /** Records an append of {@code entry} to log queue {@code logQueue}. */
    protected abstract O appendOp(String logQueue, Entry entry);

    /** Records an enqueue of {@code task} to task queue {@code taskQueue}. */
    protected abstract O enqueueOp(String taskQueue, Task task);

    /** Records an ack ({@code nack} false: {@code delay} and {@code reason} null) or a nack of a leased task. */
    protected abstract O settleOp(String taskQueue, LeaseToken token, boolean nack, Duration delay, String reason);

    /** As {@link #settleOp} for a record leased from shared group {@code group} of log queue {@code logQueue}. */
    protected abstract O settleSharedOp(String logQueue, String group, LeaseToken token, boolean nack, Duration delay,
                                        String reason);

    /** Records a commit of consumer group {@code group}'s offset. */
    protected abstract O commitOffsetOp(String logQueue, String group, long nextOffset);

    /** Commits {@code ops} as one; the list does not change afterwards. */
    protected abstract void commitOps(List<O> ops);

    /** Prepares {@code ops} as branch {@code xid}; the list does not change afterwards. */
    protected abstract void prepareOps(byte[] xid, String owner, List<O> ops);

    /**
     * Starts writing {@code ops} as branch {@code xid} ahead of phase one ({@link Transaction#prepareAhead}); by
     * default nothing is written ahead and the handle commits, prepares or drops {@code ops} when used.
     */
    protected PreparedAhead prepareAheadOps(byte[] xid, String owner, List<O> ops) {
        return new PreparedAhead() {
            @Override
            public void confirm() {
                prepareOps(xid, owner, ops);
            }

            @Override
            public void commit() {
                commitOps(ops);
            }

            @Override
            public void rollback() {
                ops.clear();
            }
        };
    }

    private Transaction add(O op) {
        if (finished) {
            throw new IllegalStateException("the transaction is already committed, rolled back or prepared");
        }
        ops.add(op);
        return this;
    }

    @Override
    public Transaction append(String logQueue, Entry entry) {
        return add(appendOp(Objects.requireNonNull(logQueue), Objects.requireNonNull(entry)));
    }

    @Override
    public Transaction enqueue(String taskQueue, Task task) {
        return add(enqueueOp(Objects.requireNonNull(taskQueue), Objects.requireNonNull(task)));
    }

    @Override
    public Transaction ack(String taskQueue, LeaseToken token) {
        return add(settleOp(Objects.requireNonNull(taskQueue), Objects.requireNonNull(token), false, null, null));
    }

    @Override
    public Transaction nack(String taskQueue, LeaseToken token, Duration delay, String reason) {
        return add(settleOp(Objects.requireNonNull(taskQueue), Objects.requireNonNull(token), true, delay, reason));
    }

    @Override
    public Transaction ackShared(String logQueue, String group, LeaseToken token) {
        return add(settleSharedOp(Objects.requireNonNull(logQueue), Objects.requireNonNull(group),
                Objects.requireNonNull(token), false, null, null));
    }

    @Override
    public Transaction nackShared(String logQueue, String group, LeaseToken token, Duration delay, String reason) {
        return add(settleSharedOp(Objects.requireNonNull(logQueue), Objects.requireNonNull(group),
                Objects.requireNonNull(token), true, delay, reason));
    }

    @Override
    public Transaction commitOffset(String logQueue, String group, long nextOffset) {
        return add(commitOffsetOp(Objects.requireNonNull(logQueue), Objects.requireNonNull(group), nextOffset));
    }

    @Override
    public int size() {
        return ops.size();
    }

    @Override
    public void commit() {
        finish();
        commitOps(ops);
    }

    @Override
    public void rollback() {
        finish();
        ops.clear();
    }

    @Override
    public void prepare(byte[] xid, String owner) {
        Objects.requireNonNull(xid, "xid");
        finish();
        prepareOps(xid, owner, ops);
    }

    @Override
    public PreparedAhead prepareAhead(byte[] xid, String owner) {
        Objects.requireNonNull(xid, "xid");
        finish();
        return prepareAheadOps(xid, owner, ops);
    }

    @Override
    public void close() {
        if (!finished) {
            rollback();
        }
    }

    private void finish() {
        if (finished) {
            throw new IllegalStateException("the transaction is already committed, rolled back or prepared");
        }
        finished = true;
    }
}
