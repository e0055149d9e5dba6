package io.mikyu.engine;

/**
 * No transaction is prepared under the xid given to {@link Mikyu#commitPrepared(byte[])} or
 * {@link Mikyu#rollbackPrepared(byte[])}: it was never prepared, or it was decided already.
 */
public class TransactionNotFoundException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public TransactionNotFoundException(String message) {
        super(message);
    }
}
