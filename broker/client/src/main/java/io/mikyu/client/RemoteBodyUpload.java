package io.mikyu.client;

import io.mikyu.engine.BodyUpload;
import io.mikyu.engine.LargeBody;
import io.mikyu.engine.MikyuException;
import io.mikyu.protocol.BodyDescriptor;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A large body uploaded to a broker in chunks of one frame each ({@link BodyDescriptor}): the bytes written are
 * gathered into a chunk, each full chunk is sent at once, and at most the broker's window of chunks is unanswered,
 * so the caller is held back to the pace the broker writes at and only one chunk sits in this side's memory.
 * Not thread-safe, as an in-process upload is not.
 */
final class RemoteBodyUpload implements BodyUpload {

    private final BrokerChannel channel;
    private final int upload;
    private final String id;
    private final int window;
    private final byte[] chunk;
    private final Deque<BrokerChannel.Submitted> unanswered = new ArrayDeque<>();
    private int filled;
    /** Bytes already sent in chunks. */
    private long sent;
    private boolean published;
    private boolean closed;
    private IOException failed;

    private RemoteBodyUpload(BrokerChannel channel, int upload, String id, int window) {
        this.channel = channel;
        this.upload = upload;
        this.id = id;
        this.window = window;
        this.chunk = new byte[BodyDescriptor.chunkBytes(channel.maxFrameBytes())];
    }

    /** Opens an upload for a body a task of {@code queue} will name. */
    static RemoteBodyUpload open(BrokerChannel channel, String queue) {
        return channel.call(Op.BODY_OPEN, b -> Fields.writeString(b, queue), in -> {
            int upload = Fields.readInt(in);
            String id = Fields.readRequiredString(in, "body id");
            int window = Fields.readInt(in);
            if (!LargeBody.isValidId(id) || window < 1) {
                throw new io.mikyu.protocol.MalformedFrameException("BODY_OPEN answered id '" + id + "', window "
                        + window);
            }
            return new RemoteBodyUpload(channel, upload, id, window);
        });
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public long length() {
        return sent + filled;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, bytes.length);
        ensureWritable();
        while (length > 0) {
            int n = Math.min(length, chunk.length - filled);
            System.arraycopy(bytes, offset, chunk, filled, n);
            filled += n;
            offset += n;
            length -= n;
            if (filled == chunk.length) {
                sendChunk();
            }
        }
    }

    @Override
    public long writeFrom(InputStream in) throws IOException {
        ensureWritable();
        long copied = 0;
        int n;
        while ((n = in.read(chunk, filled, chunk.length - filled)) >= 0) {
            filled += n;
            copied += n;
            if (filled == chunk.length) {
                sendChunk();
            }
        }
        return copied;
    }

    @Override
    public LargeBody publish() throws IOException {
        ensureWritable();
        if (filled > 0) {
            sendChunk();
        }
        awaitAnswers(0);
        long length = sent;
        try {
            channel.call(Op.BODY_PUBLISH, b -> {
                b.writeInt(upload);
                b.writeLong(length);
            }, in -> null);
        } catch (MikyuException e) {
            throw failure(e);
        }
        published = true;
        return new LargeBody(id, length);
    }

    /**
     * Before {@link #publish()}: the broker discards the body. After: the broker keeps it only while a task names
     * it. If the connection is gone, the broker did either already.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            awaitAnswers(0);
        } catch (IOException ignored) {
            // the chunks failed; the upload is dropped below all the same
        }
        if (channel.isOpen()) {
            try {
                channel.call(Op.BODY_CLOSE, b -> b.writeInt(upload), in -> null);
            } catch (MikyuException e) {
                // the connection went meanwhile: the broker closed the upload when it saw that
            }
        }
    }

    private void sendChunk() throws IOException {
        awaitAnswers(window - 1);
        long offset = sent;
        int length = filled;
        try {
            unanswered.add(channel.submit(Op.BODY_CHUNK, b -> {
                b.writeInt(upload);
                b.writeLong(offset);
                b.writeInt(length);
                b.writeBytes(chunk, 0, length);
            }));
        } catch (MikyuException e) {
            throw failure(e);
        }
        sent += length;
        filled = 0;
    }

    /** Waits until at most {@code left} chunks are unanswered. */
    private void awaitAnswers(int left) throws IOException {
        while (unanswered.size() > left) {
            try {
                unanswered.poll().await();
            } catch (MikyuException e) {
                throw failure(e);
            }
        }
    }

    private IOException failure(MikyuException e) {
        if (failed == null) {
            failed = new IOException("could not upload large body " + id + ": " + e.getMessage(), e);
        }
        return failed;
    }

    private void ensureWritable() throws IOException {
        if (failed != null) {
            throw failed;
        }
        if (closed || published) {
            throw new IOException("large body " + id + " is " + (closed ? "closed" : "published") + "; no more"
                    + " writes");
        }
    }
}
