package io.mikyu.jms.large;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A body of any length made on the fly (its bytes never exist all at once), and a digest of what is written. Public:
 * the broker module's large-message tests and child processes use the same bodies.
 */
public final class PatternStream extends InputStream {

    private final long length;
    private final int seed;
    private long pos;

    public PatternStream(long length, int seed) {
        this.length = length;
        this.seed = seed;
    }

    public static byte at(long pos, int seed) {
        return (byte) ((pos * 31 + seed + (pos >>> 13)) & 0xff);
    }

    @Override
    public int read() {
        return pos < length ? at(pos++, seed) & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (pos >= length) {
            return -1;
        }
        int n = (int) Math.min(len, length - pos);
        for (int i = 0; i < n; i++) {
            b[off + i] = at(pos++, seed);
        }
        return n;
    }

    public static byte[] bytes(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = at(i, seed);
        }
        return b;
    }

    public static byte[] digestOf(long length, int seed) throws IOException {
        Digest d = new Digest();
        new PatternStream(length, seed).transferTo(d);
        return d.digest();
    }

    /** An OutputStream that keeps only a SHA-256 and a count of what it was given. */
    public static final class Digest extends OutputStream {
        private final MessageDigest md;
        public volatile long count;
        public volatile boolean flushed;

        public Digest() {
            try {
                md = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void write(int b) {
            md.update((byte) b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            md.update(b, off, len);
            count += len;
        }

        @Override
        public void flush() {
            flushed = true;
        }

        public byte[] digest() {
            return md.digest();
        }
    }
}
