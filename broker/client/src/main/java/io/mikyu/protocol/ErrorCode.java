package io.mikyu.protocol;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.CommittedNotAppliedException;
import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.MemoryLimitException;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.OffsetOutOfRangeException;
import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.StorageFullException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.StoreLockedException;
import io.mikyu.engine.TransactionExistsException;
import io.mikyu.engine.TransactionNotFoundException;

import java.util.function.Function;

/**
 * What an {@link FrameDescriptor#ERROR} frame's {@code code:u16} says went wrong: the engine's exception types,
 * so that a failure arrives at the client as the same type it would have had in-process, with the same message.
 */
public enum ErrorCode {
    /** Any other failure: {@link MikyuException} with the message. */
    GENERIC(1, MikyuException::new),
    QUEUE_NOT_FOUND(2, QueueNotFoundException::new),
    QUEUE_EXISTS(3, QueueExistsException::new),
    STALE_LEASE(4, StaleLeaseException::new),
    RECORD_TOO_LARGE(5, RecordTooLargeException::new),
    STORAGE_FULL(6, StorageFullException::new),
    INVALID_QUEUE_NAME(7, InvalidQueueNameException::new),
    OFFSET_OUT_OF_RANGE(8, OffsetOutOfRangeException::new),
    STORE_CLOSED(9, StoreClosedException::new),
    STORE_LOCKED(10, StoreLockedException::new),
    /** {@link CorruptionException}; its file and position are in the message. */
    CORRUPTION(11, MikyuException::new),
    /** The handshake's credentials were refused (id 0; the connection is closed). */
    AUTHENTICATION(12, AuthenticationException::new),
    /** The user lacks the permission the request needs on its queue; the connection stays. */
    ACCESS_DENIED(13, AccessDeniedException::new),
    /** A claim conflicts with the name's holders ({@link io.mikyu.engine.ClaimedException}). */
    CLAIMED(14, io.mikyu.engine.ClaimedException::new),
    /** No transaction is prepared under the xid (or, over a broker with users, none the user may decide). */
    TRANSACTION_NOT_FOUND(15, TransactionNotFoundException::new),
    /** A transaction is already prepared under the xid. */
    TRANSACTION_EXISTS(16, TransactionExistsException::new),
    /** The transaction is committed; its writes failed and are applied later ({@link CommittedNotAppliedException}). */
    COMMITTED_NOT_APPLIED(17, CommittedNotAppliedException::new),
    /** A transient enqueue over the broker's transient-memory limit ({@link MemoryLimitException}). */
    MEMORY_LIMIT(18, MemoryLimitException::new),
    ILLEGAL_ARGUMENT(20, IllegalArgumentException::new),
    ILLEGAL_STATE(21, IllegalStateException::new),
    NULL_ARGUMENT(22, NullPointerException::new),
    UNSUPPORTED(23, UnsupportedOperationException::new),
    /** The peer broke the protocol; the connection is closed. */
    PROTOCOL(30, ProtocolException::new),
    /** The broker has no thread free for the request; try again later. */
    BUSY(31, MikyuException::new);

    private static final ErrorCode[] BY_CODE = new ErrorCode[64];

    static {
        for (ErrorCode c : values()) {
            BY_CODE[c.code] = c;
        }
    }

    private final int code;
    private final Function<String, RuntimeException> exception;

    ErrorCode(int code, Function<String, RuntimeException> exception) {
        this.code = code;
        this.exception = exception;
    }

    public int code() {
        return code;
    }

    /** The code for an unknown number: {@link #GENERIC}, so that a newer broker's codes still fail usefully. */
    public static ErrorCode of(int code) {
        ErrorCode c = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        return c == null ? GENERIC : c;
    }

    /** A fresh exception of the type this code stands for, thrown on the caller's thread. */
    public RuntimeException toException(String message) {
        return exception.apply(message);
    }

    /** The code for a failure, most specific type first. */
    public static ErrorCode of(Throwable t) {
        if (t instanceof QueueNotFoundException) {
            return QUEUE_NOT_FOUND;
        } else if (t instanceof QueueExistsException) {
            return QUEUE_EXISTS;
        } else if (t instanceof StaleLeaseException) {
            return STALE_LEASE;
        } else if (t instanceof RecordTooLargeException) {
            return RECORD_TOO_LARGE;
        } else if (t instanceof StorageFullException) {
            return STORAGE_FULL;
        } else if (t instanceof InvalidQueueNameException) {
            return INVALID_QUEUE_NAME;
        } else if (t instanceof OffsetOutOfRangeException) {
            return OFFSET_OUT_OF_RANGE;
        } else if (t instanceof StoreClosedException) {
            return STORE_CLOSED;
        } else if (t instanceof StoreLockedException) {
            return STORE_LOCKED;
        } else if (t instanceof CorruptionException) {
            return CORRUPTION;
        } else if (t instanceof AuthenticationException) {
            return AUTHENTICATION;
        } else if (t instanceof AccessDeniedException) {
            return ACCESS_DENIED;
        } else if (t instanceof io.mikyu.engine.ClaimedException) {
            return CLAIMED;
        } else if (t instanceof TransactionNotFoundException) {
            return TRANSACTION_NOT_FOUND;
        } else if (t instanceof TransactionExistsException) {
            return TRANSACTION_EXISTS;
        } else if (t instanceof CommittedNotAppliedException) {
            return COMMITTED_NOT_APPLIED;
        } else if (t instanceof MemoryLimitException) {
            return MEMORY_LIMIT;
        } else if (t instanceof ProtocolException || t instanceof MalformedFrameException) {
            return PROTOCOL;
        } else if (t instanceof MikyuException) {
            return GENERIC;
        } else if (t instanceof IllegalArgumentException) {
            return ILLEGAL_ARGUMENT;
        } else if (t instanceof IllegalStateException) {
            return ILLEGAL_STATE;
        } else if (t instanceof NullPointerException) {
            return NULL_ARGUMENT;
        } else if (t instanceof UnsupportedOperationException) {
            return UNSUPPORTED;
        }
        return GENERIC;
    }

    /** The message an error frame carries: the exception's own, or its type when it has none. */
    public static String messageOf(Throwable t) {
        ErrorCode code = of(t);
        if (t.getMessage() == null) {
            return t.getClass().getSimpleName();
        }
        // Types the code does not name keep their name in the text, as the CLI prints them.
        boolean named = code != GENERIC || t instanceof MikyuException;
        return named ? t.getMessage() : t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
