package io.mikyu.jms.context;

import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidClientIDRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageNotWriteableRuntimeException;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.ResourceAllocationRuntimeException;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.TransactionRolledBackRuntimeException;

/**
 * Maps the classic API's checked exceptions to the simplified API's unchecked twins (Jakarta Messaging 3.1 §7.3).
 * Message, error code and cause are kept; the cause is the checked exception itself, so its own cause (say, an
 * engine error) stays reachable.
 */
public final class RuntimeExceptions {

    private RuntimeExceptions() {
    }

    /** The runtime twin of {@code e}; a plain {@link JMSRuntimeException} for a type without one. */
    public static JMSRuntimeException translate(JMSException e) {
        String message = e.getMessage();
        String code = e.getErrorCode();
        if (e instanceof IllegalStateException) {
            return new IllegalStateRuntimeException(message, code, e);
        }
        if (e instanceof InvalidClientIDException) {
            return new InvalidClientIDRuntimeException(message, code, e);
        }
        if (e instanceof InvalidDestinationException) {
            return new InvalidDestinationRuntimeException(message, code, e);
        }
        if (e instanceof InvalidSelectorException) {
            return new InvalidSelectorRuntimeException(message, code, e);
        }
        if (e instanceof JMSSecurityException) {
            return new JMSSecurityRuntimeException(message, code, e);
        }
        if (e instanceof MessageFormatException) {
            return new MessageFormatRuntimeException(message, code, e);
        }
        if (e instanceof MessageNotWriteableException) {
            return new MessageNotWriteableRuntimeException(message, code, e);
        }
        if (e instanceof ResourceAllocationException) {
            return new ResourceAllocationRuntimeException(message, code, e);
        }
        if (e instanceof TransactionInProgressException) {
            return new TransactionInProgressRuntimeException(message, code, e);
        }
        if (e instanceof TransactionRolledBackException) {
            return new TransactionRolledBackRuntimeException(message, code, e);
        }
        return new JMSRuntimeException(message, code, e);
    }
}
