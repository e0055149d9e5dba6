package io.mikyu.engine;

/**
 * A transaction whose PREPARE record is being written ahead of phase one: {@link Transaction#prepareAhead} starts
 * the write and returns at once, so the fsync runs while the caller does other work (an XA transaction manager
 * prepares its other resources). The transaction is <em>not</em> prepared yet: it is not listed, cannot be decided,
 * and takes no hold on what it acks until {@link #confirm()}. Exactly one of the three methods is called, once.
 *
 * <p>What a crash leaves: once the record is durable, a store reopened after a crash cannot tell it from a
 * confirmed prepare, so it lists the transaction in doubt ({@link Mikyu#inDoubtTransactions()}) for the transaction
 * manager to decide; a manager that never recorded a decision rolls it back (presumed abort). Until the crash,
 * {@link #commit()} and {@link #rollback()} leave no transaction in doubt.
 */
public interface PreparedAhead {

    /**
     * Phase one: waits for the record (and checks again what the transaction acks), then the transaction is
     * prepared exactly as by {@link Transaction#prepare(byte[], String)}, with the same failures. If the check
     * fails, the record is rolled back before the failure is thrown.
     */
    void confirm();

    /** Commits in one phase, as {@link Transaction#commit()} would; the record written ahead is superseded. */
    void commit();

    /** Discards the transaction; the record written ahead, if any reached the disk, is rolled back durably. */
    void rollback();

    /**
     * For a {@link Transaction} that writes nothing ahead: every call does then what {@code transaction} would
     * have done at once.
     */
    static PreparedAhead deferred(Transaction transaction, byte[] xid, String owner) {
        return new PreparedAhead() {
            @Override
            public void confirm() {
                transaction.prepare(xid, owner);
            }

            @Override
            public void commit() {
                transaction.commit();
            }

            @Override
            public void rollback() {
                transaction.rollback();
            }
        };
    }
}
