package io.mikyu.jms.context;

import jakarta.jms.CompletionListener;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Which context's listener the current thread is running, so that a context can refuse what its own listeners
 * must not do (a CompletionListener closing, committing or rolling back its context; a MessageListener closing its
 * context or stopping its connection): the listeners given to the classic objects are wrapped here to mark the
 * thread while they run.
 */
final class ContextCallbacks {

    /** The context whose MessageListener is running on this thread (a session's delivery thread), if any. */
    private static final ThreadLocal<MikyuJMSContext> LISTENER_OF = new ThreadLocal<>();
    /** The context whose CompletionListener is running on this thread, if any. */
    private static final ThreadLocal<MikyuJMSContext> COMPLETION_OF = new ThreadLocal<>();

    private ContextCallbacks() {
    }

    static boolean inMessageListenerOf(MikyuJMSContext context) {
        return LISTENER_OF.get() == context;
    }

    /** Inside a MessageListener of any context sharing {@code shared}'s connection. */
    static boolean inMessageListenerOn(SharedConnection shared) {
        MikyuJMSContext running = LISTENER_OF.get();
        return running != null && running.shared == shared;
    }

    static boolean inCompletionListenerOf(MikyuJMSContext context) {
        return COMPLETION_OF.get() == context;
    }

    /** The listener the classic consumer calls: records the delivery and marks the thread while it runs. */
    static MessageListener deliveringTo(MikyuJMSContext context, MessageListener listener) {
        return message -> {
            context.delivered(message);
            MikyuJMSContext previous = LISTENER_OF.get();
            LISTENER_OF.set(context);
            try {
                listener.onMessage(message);
            } finally {
                restore(LISTENER_OF, previous);
            }
        };
    }

    /**
     * The listener the classic producer calls: marks the thread while it runs, and hands the simplified API's
     * runtime exceptions to {@code onException}.
     */
    static CompletionListener completingTo(MikyuJMSContext context, CompletionListener listener) {
        return new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                MikyuJMSContext previous = COMPLETION_OF.get();
                COMPLETION_OF.set(context);
                try {
                    listener.onCompletion(message);
                } finally {
                    restore(COMPLETION_OF, previous);
                }
            }

            @Override
            public void onException(Message message, Exception exception) {
                Exception translated = exception instanceof JMSException e ? RuntimeExceptions.translate(e) : exception;
                MikyuJMSContext previous = COMPLETION_OF.get();
                COMPLETION_OF.set(context);
                try {
                    listener.onException(message, translated);
                } finally {
                    restore(COMPLETION_OF, previous);
                }
            }
        };
    }

    private static void restore(ThreadLocal<MikyuJMSContext> marker, MikyuJMSContext previous) {
        if (previous == null) {
            marker.remove();
        } else {
            marker.set(previous);
        }
    }
}
