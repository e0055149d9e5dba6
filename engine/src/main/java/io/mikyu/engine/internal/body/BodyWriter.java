package io.mikyu.engine.internal.body;

import io.mikyu.engine.BodyUpload;
import io.mikyu.engine.LargeBody;
import io.mikyu.engine.internal.format.BodyFileDescriptor;
import io.mikyu.engine.internal.format.FileHeader;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * A body being written: bytes go to its pending file one chunk at a time, so it never sits whole in memory.
 * {@link #publish()} makes it complete and durable; {@link #close()} before that discards it, after it hands the
 * body over to the queues (the sweep keeps it only while a task names it).
 */
public final class BodyWriter extends OutputStream implements BodyUpload {

    private final BodyStore store;
    private final String id;
    private final Path file;
    private final FileChannel channel;
    private final ByteBuffer chunk;
    private final CRC32C crc = new CRC32C();
    private long total;
    private int chunks;
    private boolean finished;
    private boolean published;

    BodyWriter(BodyStore store, String id, Path file, FileChannel channel, int chunkSize) throws IOException {
        this.store = store;
        this.id = id;
        this.file = file;
        this.channel = channel;
        this.chunk = ByteBuffer.allocate(BodyFileDescriptor.CHUNK_HEADER + chunkSize).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer header = ByteBuffer.allocate(FileHeader.LENGTH);
        FileHeader.BODY.write(header);
        writeFully(header.flip());
        chunk.position(BodyFileDescriptor.CHUNK_HEADER);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public long length() {
        return total + chunk.position() - BodyFileDescriptor.CHUNK_HEADER;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        while (len > 0) {
            int n = Math.min(len, chunk.remaining());
            chunk.put(b, off, n);
            off += n;
            len -= n;
            if (!chunk.hasRemaining()) {
                flushChunk();
            }
        }
    }

    @Override
    public long writeFrom(InputStream in) throws IOException {
        ensureOpen();
        long copied = 0;
        while (true) {
            int n = in.read(chunk.array(), chunk.arrayOffset() + chunk.position(), chunk.remaining());
            if (n < 0) {
                return copied;
            }
            chunk.position(chunk.position() + n);
            copied += n;
            if (!chunk.hasRemaining()) {
                flushChunk();
            }
        }
    }

    /**
     * Writes the trailer, fsyncs the file, renames it into place and fsyncs the directory. From here the body is
     * complete and survives a crash; the store protects it from the sweep until {@link BodyStore#released} is
     * called for its id (at {@link #close()}: once the record naming it is written, or the send given up).
     */
    @Override
    public LargeBody publish() throws IOException {
        ensureOpen();
        flushChunk();
        ByteBuffer trailer = ByteBuffer.allocate(BodyFileDescriptor.TRAILER).order(ByteOrder.LITTLE_ENDIAN);
        trailer.putInt(BodyFileDescriptor.TRAILER_MARK).putLong(total).putInt(chunks);
        CRC32C c = new CRC32C();
        c.update(trailer.array(), 0, 16);
        trailer.putInt((int) c.getValue());
        writeFully(trailer.flip());
        channel.force(true);
        channel.close();
        finished = true;
        store.publish(this, file);
        published = true;
        return new LargeBody(id, total);
    }

    /** Discards the body unless it was published; releases it to the sweep if it was. */
    @Override
    public void close() throws IOException {
        if (published) {
            store.released(id);
            return;
        }
        if (finished) {
            return;
        }
        finished = true;
        try {
            channel.close();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private void flushChunk() throws IOException {
        int len = chunk.position() - BodyFileDescriptor.CHUNK_HEADER;
        if (len == 0) {
            return;
        }
        crc.reset();
        crc.update(chunk.array(), chunk.arrayOffset() + BodyFileDescriptor.CHUNK_HEADER, len);
        chunk.putInt(0, len).putInt(4, (int) crc.getValue());
        chunk.flip();
        writeFully(chunk);
        chunk.clear().position(BodyFileDescriptor.CHUNK_HEADER);
        total += len;
        chunks++;
    }

    private void writeFully(ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            channel.write(buf);
        }
    }

    private void ensureOpen() throws IOException {
        if (finished) {
            throw new IOException("body " + id + " is already published or discarded");
        }
    }
}
