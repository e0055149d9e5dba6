package io.mikyu.broker.faults;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Session;

import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Child JVM with a small heap, a JMS client of a daemon: {@code send <url> <queue> <bytes>} streams one message of
 * that many pattern bytes and prints {@code streaming} once 16 MiB are read, then {@code sent};
 * {@code receive <url> <queue>} saves the body of one message into a digest and prints
 * {@code received <bytes> <sha-256>}. Both print {@code heap <MiB>} (the heap's size at the end).
 */
public final class LargeTcpChild {

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        try (Connection c = new MikyuConnectionFactory(args[1]).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            if (mode.equals("send")) {
                BytesMessage m = s.createBytesMessage();
                m.setObjectProperty("JMS_MIKYU_InputStream", new Pattern(Long.parseLong(args[3])));
                s.createProducer(s.createQueue(args[2])).send(m);
                System.out.println("sent");
            } else {
                BytesMessage m = (BytesMessage) s.createConsumer(s.createQueue(args[2])).receive(600_000);
                Digest out = new Digest();
                m.setObjectProperty("JMS_MIKYU_SaveStream", out);
                System.out.println("received " + out.count + " " + HexFormat.of().formatHex(out.sha.digest()));
            }
        }
        System.out.println("heap " + (Runtime.getRuntime().totalMemory() >> 20));
        System.out.flush();
    }

    /** The byte at {@code pos} of every pattern body. */
    static byte at(long pos) {
        return (byte) (pos * 31 + (pos >>> 13));
    }

    /** The SHA-256 of the first {@code length} pattern bytes, in hex. */
    static String sha256(long length) throws Exception {
        Digest d = new Digest();
        new Pattern(length).transferTo(d);
        return HexFormat.of().formatHex(d.sha.digest());
    }

    /** {@code length} pattern bytes, generated as read; tells once 16 MiB have been read. */
    static final class Pattern extends InputStream {
        private final long length;
        private long pos;

        Pattern(long length) {
            this.length = length;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos >= length) {
                return -1;
            }
            int n = (int) Math.min(len, length - pos);
            for (int i = 0; i < n; i++) {
                b[off + i] = at(pos + i);
            }
            if (pos < (16 << 20) && pos + n >= (16 << 20)) {
                System.out.println("streaming");
                System.out.flush();
            }
            pos += n;
            return n;
        }
    }

    static final class Digest extends OutputStream {
        final MessageDigest sha;
        long count;

        Digest() throws Exception {
            sha = MessageDigest.getInstance("SHA-256");
        }

        @Override
        public void write(int b) {
            sha.update((byte) b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            sha.update(b, off, len);
            count += len;
        }
    }
}
