package io.mikyu.broker.faults;

import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.large.PatternStream;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.Session;

import java.io.FilterInputStream;
import java.io.IOException;
import java.util.HexFormat;

/**
 * Child JVM with a small heap, a JMS client of a daemon: {@code send <url> <destination> <bytes>} streams one
 * message of that many pattern bytes ({@link PatternStream}, seed {@link #SEED}) and prints {@code streaming} once
 * 16 MiB are read, then {@code sent}; {@code receive <url> <destination>} saves the body of one message into a digest
 * and prints {@code received <bytes> <sha-256>}. A destination {@code topic:<name>} is a topic, any other a queue.
 * Both print {@code heap <MiB>} (the heap's size at the end).
 */
public final class LargeTcpChild {

    static final int SEED = 1;
    private static final long STREAMING_MARK = 16L << 20;

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        try (Connection c = new MikyuConnectionFactory(args[1]).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Destination d = args[2].startsWith("topic:") ? s.createTopic(args[2].substring(6))
                    : s.createQueue(args[2]);
            if (mode.equals("send")) {
                BytesMessage m = s.createBytesMessage();
                m.setObjectProperty("JMS_MIKYU_InputStream", new TellsWhenStreaming(Long.parseLong(args[3])));
                s.createProducer(d).send(m);
                System.out.println("sent");
            } else {
                BytesMessage m = (BytesMessage) s.createConsumer(d).receive(600_000);
                PatternStream.Digest out = new PatternStream.Digest();
                m.setObjectProperty("JMS_MIKYU_SaveStream", out);
                System.out.println("received " + out.count + " " + HexFormat.of().formatHex(out.digest()));
            }
        }
        System.out.println("heap " + (Runtime.getRuntime().totalMemory() >> 20));
        System.out.flush();
    }

    /** The line a receiver of the {@code length}-byte body prints. */
    static String receivedLine(long length) throws IOException {
        return "received " + length + " " + HexFormat.of().formatHex(PatternStream.digestOf(length, SEED));
    }

    /** The pattern body, printing {@code streaming} once 16 MiB have been read. */
    private static final class TellsWhenStreaming extends FilterInputStream {
        private long pos;

        TellsWhenStreaming(long length) {
            super(new PatternStream(length, SEED));
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0 && pos < STREAMING_MARK && pos + n >= STREAMING_MARK) {
                System.out.println("streaming");
                System.out.flush();
            }
            pos += Math.max(n, 0);
            return n;
        }
    }
}
