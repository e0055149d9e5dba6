package io.mikyu.jms.classic;

import io.mikyu.engine.NoAnswerException;
import io.mikyu.engine.StoreClosedException;

import javax.transaction.xa.XAException;

/** The {@link XAException}s the XA specification names, with a message saying what happened. */
final class XaErrors {

    private XaErrors() {
    }

    static XAException of(int code, String message) {
        XAException e = new XAException(message + " (" + name(code) + ")");
        e.errorCode = code;
        return e;
    }

    static XAException of(int code, String message, Throwable cause) {
        XAException e = of(code, message + ": " + cause.getMessage());
        e.initCause(cause);
        return e;
    }

    /**
     * Whether a failed call may still have taken effect: the store could not be reached, or did not answer in
     * time. The caller must then say {@code XAER_RMFAIL}, never that the branch was rolled back.
     */
    static boolean outcomeUnknown(RuntimeException e) {
        return e instanceof StoreClosedException || e instanceof NoAnswerException;
    }

    static String name(int code) {
        return switch (code) {
            case XAException.XA_RBROLLBACK -> "XA_RBROLLBACK";
            case XAException.XA_RBTIMEOUT -> "XA_RBTIMEOUT";
            case XAException.XAER_NOTA -> "XAER_NOTA";
            case XAException.XAER_PROTO -> "XAER_PROTO";
            case XAException.XAER_INVAL -> "XAER_INVAL";
            case XAException.XAER_DUPID -> "XAER_DUPID";
            case XAException.XAER_RMFAIL -> "XAER_RMFAIL";
            case XAException.XAER_RMERR -> "XAER_RMERR";
            default -> String.valueOf(code);
        };
    }
}
