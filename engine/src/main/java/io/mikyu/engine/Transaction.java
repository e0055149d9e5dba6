package io.mikyu.engine;

import java.time.Duration;

/**
 * An atomic batch across queues and kinds: appends to log queues, enqueues to task queues, acks and nacks of
 * leased tasks and of shared-group records, and consumer-group commits either all take effect or none does, also
 * across a crash at any point. Nothing is written before {@link #commit()} or {@link #prepare(byte[], String)}.
 *
 * <p>Commit writes the whole batch to the store's transaction log and fsyncs it: that record is the atomic point.
 * The operations are then applied to their queues in one group commit; after a crash, recovery applies whatever
 * part of a committed transaction did not reach its queues (and never applies a part twice).
 *
 * <p>Acks and nacks in a transaction take effect at commit even if the lease ended in between: the transaction
 * decided. Build a transaction on one thread; it is not thread-safe. Closing an unfinished transaction rolls it
 * back.
 */
public interface Transaction extends AutoCloseable {

    Transaction append(String logQueue, Entry entry);

    Transaction enqueue(String taskQueue, Task task);

    Transaction ack(String taskQueue, LeaseToken token);

    /** Gives the task back: {@code delay} {@code null} means the queue's backoff. */
    Transaction nack(String taskQueue, LeaseToken token, Duration delay, String reason);

    Transaction ackShared(String logQueue, String group, LeaseToken token);

    Transaction nackShared(String logQueue, String group, LeaseToken token, Duration delay, String reason);

    /** Commits an exclusive consumer group's position as part of the transaction. */
    Transaction commitOffset(String logQueue, String group, long nextOffset);

    /** Number of operations so far. */
    int size();

    /** Applies everything atomically and durably. The transaction is finished afterwards. */
    void commit();

    /** Discards everything. The transaction is finished afterwards. */
    void rollback();

    /**
     * Phase one of two: durably records the operations as prepared under {@code xid} (opaque bytes, e.g. an XA
     * Xid). Their effects stay invisible, and the tasks and records they ack or nack stay leased, until
     * {@link Mikyu#commitPrepared(byte[])} or {@link Mikyu#rollbackPrepared(byte[])} decides, also after a restart
     * ({@link Mikyu#inDoubtTransactions()}). The transaction object is finished afterwards.
     *
     * <p>{@code owner}, the user preparing it ({@code null}: none), is stored with it and listed by
     * {@link Mikyu#inDoubtTransactions()}. Over a broker the owner is the connection's authenticated user, whatever is
     * passed here.
     *
     * @throws TransactionExistsException if a transaction is already prepared, and not yet decided, as {@code xid}
     */
    void prepare(byte[] xid, String owner);

    /**
     * Starts writing the PREPARE record of this transaction under {@code xid} and returns without waiting for it:
     * see {@link PreparedAhead}, whose {@link PreparedAhead#confirm()} is then phase one. For a caller that knows
     * phase one is coming and has other work meanwhile. Checks what {@link #prepare(byte[], String)} checks before
     * writing, with the same exceptions. The transaction object is finished afterwards.
     *
     * <p>An implementation that cannot write ahead (the default) writes nothing until the handle is used.
     */
    default PreparedAhead prepareAhead(byte[] xid, String owner) {
        return PreparedAhead.deferred(this, xid, owner);
    }

    /** {@link #prepare(byte[], String)} without an owner. */
    default void prepare(byte[] xid) {
        prepare(xid, null);
    }

    /** Rolls back if neither committed, rolled back nor prepared. */
    @Override
    void close();
}
