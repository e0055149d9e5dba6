package io.mikyu.engine.internal.body;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.internal.format.BodyFileDescriptor;
import io.mikyu.engine.internal.format.FileHeader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * A published body read lazily, one chunk at a time: each chunk's CRC32C is checked before any of its bytes is
 * handed out, and the trailer at the end, so a damaged or cut file is an {@link IOException} (its cause a
 * {@link CorruptionException} naming file and position), never wrong or missing bytes.
 */
public final class BodyInputStream extends InputStream {

    private final Path file;
    private final FileChannel channel;
    private final ByteBuffer head = ByteBuffer.allocate(BodyFileDescriptor.TRAILER).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private ByteBuffer chunk = ByteBuffer.allocate(0);
    private long position = FileHeader.LENGTH;
    private long delivered;
    private int chunks;
    private boolean ended;

    BodyInputStream(Path file, FileChannel channel) throws IOException {
        this.file = file;
        this.channel = channel;
        ByteBuffer header = ByteBuffer.allocate(FileHeader.LENGTH);
        readFully(header, 0);
        try {
            FileHeader.BODY.check(header.flip(), file);
        } catch (CorruptionException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!chunk.hasRemaining() && !nextChunk()) {
            return -1;
        }
        int n = Math.min(len, chunk.remaining());
        chunk.get(b, off, n);
        delivered += n;
        return n;
    }

    @Override
    public int available() {
        return chunk.remaining();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private boolean nextChunk() throws IOException {
        if (ended) {
            return false;
        }
        head.clear().limit(BodyFileDescriptor.CHUNK_HEADER);
        readFully(head, position);
        int length = head.getInt(0);
        if (length == BodyFileDescriptor.TRAILER_MARK) {
            checkTrailer();
            ended = true;
            return false;
        }
        if (length <= 0 || length > BodyFileDescriptor.MAX_CHUNK) {
            throw damage(position, "bad chunk length " + length);
        }
        if (chunk.capacity() < length) {
            chunk = ByteBuffer.allocate(length);
        }
        chunk.clear().limit(length);
        readFully(chunk, position + BodyFileDescriptor.CHUNK_HEADER);
        chunk.flip();
        crc.reset();
        crc.update(chunk.array(), 0, length);
        if ((int) crc.getValue() != head.getInt(4)) {
            throw damage(position, "chunk checksum mismatch");
        }
        position += BodyFileDescriptor.CHUNK_HEADER + length;
        chunks++;
        return true;
    }

    private void checkTrailer() throws IOException {
        head.clear();
        readFully(head, position);
        crc.reset();
        crc.update(head.array(), 0, 16);
        if ((int) crc.getValue() != head.getInt(16)) {
            throw damage(position, "trailer checksum mismatch");
        }
        if (head.getLong(4) != delivered + chunk.remaining() || head.getInt(12) != chunks) {
            throw damage(position, "trailer says " + head.getLong(4) + " bytes in " + head.getInt(12)
                    + " chunks, the file holds " + delivered + " in " + chunks);
        }
    }

    private void readFully(ByteBuffer buf, long at) throws IOException {
        long p = at;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, p);
            if (n < 0) {
                throw damage(at, "file ends inside the body (" + buf.remaining() + " bytes short)");
            }
            p += n;
        }
    }

    private IOException damage(long at, String what) {
        CorruptionException e = new CorruptionException(file, at, "damaged body file: " + what);
        return new IOException(e.getMessage(), e);
    }
}
