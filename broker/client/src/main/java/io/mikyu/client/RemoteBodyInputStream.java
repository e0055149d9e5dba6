package io.mikyu.client;

import io.mikyu.engine.LargeBody;
import io.mikyu.engine.MikyuException;
import io.mikyu.protocol.BodyDescriptor;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;

import java.io.IOException;
import java.io.InputStream;

/**
 * A large body read from a broker one chunk per request ({@link Op#BODY_READ}): only the chunk being read is in
 * memory. The broker checks each chunk against its checksum before it sends it; the body must hold the length the
 * record names, or the read fails.
 */
final class RemoteBodyInputStream extends InputStream {

    private final BrokerChannel channel;
    private final String queue;
    private final LargeBody body;
    private final int max;
    private byte[] chunk = new byte[0];
    private int position;
    /** Bytes of the body received so far. */
    private long received;
    private boolean ended;
    private boolean closed;

    RemoteBodyInputStream(BrokerChannel channel, String queue, LargeBody body) {
        this.channel = channel;
        this.queue = queue;
        this.body = body;
        this.max = BodyDescriptor.chunkBytes(channel.maxFrameBytes());
    }

    /** Reads the first chunk, so that a body that is not there fails now rather than at the first read. */
    RemoteBodyInputStream start() {
        fetch();
        return this;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("large body " + body.id() + " is closed");
        }
        if (len == 0) {
            return 0;
        }
        if (position == chunk.length && !next()) {
            return -1;
        }
        int n = Math.min(len, chunk.length - position);
        System.arraycopy(chunk, position, b, off, n);
        position += n;
        return n;
    }

    @Override
    public int available() {
        return chunk.length - position;
    }

    @Override
    public void close() {
        closed = true;
        chunk = new byte[0];
        position = 0;
    }

    private boolean next() throws IOException {
        if (ended || received == body.length()) {
            // all the record names: no request for the end, which the broker saw if the last answer was short
            ended = true;
            return false;
        }
        try {
            fetch();
        } catch (MikyuException e) {
            throw new IOException("could not read large body " + body.id() + ": " + e.getMessage(), e);
        }
        return !ended;
    }

    private void fetch() {
        long offset = received;
        byte[] got = channel.call(Op.BODY_READ, b -> {
            Fields.writeString(b, queue);
            Fields.writeString(b, body.id());
            b.writeLong(offset);
            b.writeInt(max);
        }, in -> Fields.readRequiredBytes(in, "body chunk"));
        received += got.length;
        chunk = got;
        position = 0;
        if (got.length == 0) {
            ended = true;
            if (received != body.length()) {
                throw new MikyuException("large body " + body.id() + " ended after " + received + " bytes; its"
                        + " record says " + body.length());
            }
        } else if (received > body.length()) {
            throw new MikyuException("large body " + body.id() + " is longer than the " + body.length()
                    + " bytes its record says");
        }
    }
}
