package io.mikyu.jms.classic;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.ClaimedException;
import io.mikyu.engine.CommittedNotAppliedException;
import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.NoAnswerException;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.StorageFullException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.TransactionExistsException;

/**
 * What a failed commit (or prepare) means for its transaction. Local transactions, the simplified API and XA
 * branches classify alike, so none of them reports a rollback that may not have happened.
 */
enum CommitFailure {
    /** Refused before anything was written: nothing of the transaction took effect. */
    ROLLED_BACK,
    /** Committed (durably decided); writing its operations failed and the store applies them later. */
    COMMITTED,
    /**
     * It may or may not have taken effect: the store could not be reached, did not answer, or failed mid-write.
     * An unreachable store is reported so even before the first write, as the XA specification's XAER_RMFAIL is.
     */
    UNKNOWN;

    static CommitFailure of(Throwable e) {
        if (e instanceof CommittedNotAppliedException) {
            return COMMITTED;
        }
        Throwable cause = e instanceof NothingWritten ? e.getCause() : e;
        if (cause instanceof StoreClosedException || cause instanceof NoAnswerException) {
            // The store cannot be reached: say so (XA: XAER_RMFAIL), even if this call had not written yet.
            return UNKNOWN;
        }
        if (e instanceof NothingWritten || e instanceof QueueNotFoundException || e instanceof InvalidQueueNameException
                || e instanceof RecordTooLargeException || e instanceof StorageFullException
                || e instanceof StaleLeaseException || e instanceof AccessDeniedException
                || e instanceof AuthenticationException || e instanceof ClaimedException
                || e instanceof TransactionExistsException || e instanceof IllegalArgumentException
                || e instanceof IllegalStateException || e instanceof NullPointerException) {
            // Checked by the engine (or the client) before the first write: refused whole.
            return ROLLED_BACK;
        }
        return UNKNOWN;
    }

    /** A failure before the commit's first write (say, looking up a destination): nothing was committed. */
    static final class NothingWritten extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NothingWritten(RuntimeException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** The failure to report: the engine's own, not the wrapper saying when it happened. */
    static RuntimeException cause(RuntimeException e) {
        return e instanceof NothingWritten && e.getCause() instanceof RuntimeException r ? r : e;
    }
}
