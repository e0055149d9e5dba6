package io.mikyu.jms.classic;

/**
 * Which connection and session the current thread is delivering for (inside {@code onMessage} or
 * {@code onCompletion}): JMS forbids a callback to close or stop its own connection or close its own session,
 * which would deadlock, and requires an {@code IllegalStateException} instead.
 */
final class CallbackThread {

    record Scope(MikyuConnection connection, MikyuSession session, boolean completion) {
    }

    private static final ThreadLocal<Scope> CURRENT = new ThreadLocal<>();

    private CallbackThread() {
    }

    static Scope enter(MikyuConnection connection, MikyuSession session, boolean completion) {
        Scope before = CURRENT.get();
        CURRENT.set(new Scope(connection, session, completion));
        return before;
    }

    static void exit(Scope before) {
        if (before == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(before);
        }
    }

    static boolean inCallbackOf(MikyuConnection connection) {
        Scope s = CURRENT.get();
        return s != null && s.connection() == connection;
    }

    /** Inside a MessageListener (not a CompletionListener) of this connection. */
    static boolean inMessageListenerOf(MikyuConnection connection) {
        Scope s = CURRENT.get();
        return s != null && s.connection() == connection && !s.completion();
    }

    static boolean inCallbackOf(MikyuSession session) {
        Scope s = CURRENT.get();
        return s != null && s.session() == session;
    }

    static boolean inCompletionCallbackOf(MikyuSession session) {
        Scope s = CURRENT.get();
        return s != null && s.session() == session && s.completion();
    }
}
