package io.mikyu.engine;

/** {@link Transaction#prepare(byte[], String)} under an xid that another undecided transaction is prepared under. */
public class TransactionExistsException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public TransactionExistsException(String message) {
        super(message);
    }
}
