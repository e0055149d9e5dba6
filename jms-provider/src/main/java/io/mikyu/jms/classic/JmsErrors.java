package io.mikyu.jms.classic;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.MemoryLimitException;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.engine.StorageFullException;
import io.mikyu.engine.StoreClosedException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ResourceAllocationException;

/** Engine failures as the JMS exceptions the spec names for them, with the engine's message and cause. */
final class JmsErrors {

    private JmsErrors() {
    }

    static JMSException of(RuntimeException e) {
        JMSException j;
        if (e instanceof AuthenticationException || e instanceof AccessDeniedException) {
            j = new JMSSecurityException(e.getMessage());
        } else if (e instanceof InvalidQueueNameException || e instanceof QueueNotFoundException) {
            j = new InvalidDestinationException(e.getMessage());
        } else if (e instanceof RecordTooLargeException) {
            j = new MessageFormatException(e.getMessage());
        } else if (e instanceof StorageFullException || e instanceof MemoryLimitException) {
            j = new ResourceAllocationException(e.getMessage());
        } else if (e instanceof StoreClosedException) {
            j = new jakarta.jms.IllegalStateException(e.getMessage());
        } else {
            j = new JMSException(String.valueOf(e.getMessage()));
        }
        return with(j, e);
    }

    static <T extends JMSException> T with(T j, Throwable cause) {
        j.initCause(cause);
        if (cause instanceof Exception ex) {
            j.setLinkedException(ex);
        }
        return j;
    }
}
