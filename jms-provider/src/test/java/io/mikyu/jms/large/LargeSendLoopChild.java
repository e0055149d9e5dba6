package io.mikyu.jms.large;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

/**
 * Child JVM: streams messages of 1 to 7 MiB into queue {@code uploads} without end, numbered from {@code args[1]},
 * printing {@code sent <n>} after each send returns, until it is killed.
 */
public final class LargeSendLoopChild {

    static long sizeOf(long n) {
        return (1 + n % 7) * 1024 * 1024 + n;
    }

    static int seedOf(long n) {
        return (int) (n * 31 + 7);
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = new MikyuConnectionFactory(args[0]).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("uploads"));
            for (long n = Long.parseLong(args[1]); ; n++) {
                BytesMessage m = s.createBytesMessage();
                m.setObjectProperty("JMS_MIKYU_InputStream", new PatternStream(sizeOf(n), seedOf(n)));
                m.setLongProperty("seq", n);
                p.send(m);
                ChildProcess.println("sent " + n);
            }
        }
    }
}
