package io.mikyu.jms.large;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import java.io.InputStream;

/**
 * Child JVM: sends one streamed message of {@code args[1]} bytes and prints {@code sent}; then streams a second one
 * without end, printing {@code streaming} once {@code args[2]} bytes of it were read, until it is killed.
 */
public final class LargeSendChild {

    public static void main(String[] args) throws Exception {
        String url = args[0];
        long complete = Long.parseLong(args[1]);
        long announceAfter = Long.parseLong(args[2]);
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("uploads"));
            BytesMessage m = s.createBytesMessage();
            m.setObjectProperty("JMS_MIKYU_InputStream", new PatternStream(complete, 1));
            m.setStringProperty("which", "complete");
            p.send(m);
            ChildProcess.println("sent");
            BytesMessage endless = s.createBytesMessage();
            endless.setObjectProperty("JMS_MIKYU_InputStream", new Announcing(announceAfter));
            endless.setStringProperty("which", "cut");
            p.send(endless);
            ChildProcess.println("sent the endless one: impossible");
        }
    }

    /** Endless bytes; says so once {@code after} of them were read. */
    private static final class Announcing extends InputStream {
        private final PatternStream bytes = new PatternStream(Long.MAX_VALUE, 2);
        private final long after;
        private long read;

        Announcing(long after) {
            this.after = after;
        }

        @Override
        public int read() {
            return bytes.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int n = bytes.read(b, off, len);
            long before = read;
            read += n;
            if (before < after && read >= after) {
                ChildProcess.println("streaming");
            }
            return n;
        }
    }
}
