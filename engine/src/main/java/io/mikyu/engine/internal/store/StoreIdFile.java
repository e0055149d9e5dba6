package io.mikyu.engine.internal.store;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.format.FileHeader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The store's identity, {@code <data>/store.id}: a random UUID made when the directory is first opened (also a
 * directory from before the file existed), never changed afterwards. Little-endian, 36 bytes:
 *
 * <pre>
 *   0            16               24               32         36
 *   +------------+----------------+----------------+----------+
 *   | FileHeader | uuid high i64  | uuid low i64   | crc32c   |   crc32c over bytes 0..32
 *   | MIKYUSID 1 |                |                |          |
 *   +------------+----------------+----------------+----------+
 * </pre>
 *
 * Written whole or not at all (a temporary file, fsynced, renamed into place). A damaged file is never replaced
 * silently: the id is what XA transaction managers know the store by.
 */
final class StoreIdFile {

    static final String FILE_NAME = "store.id";
    private static final int LENGTH = FileHeader.LENGTH + 16 + 4;
    private static final int CRC_AT = FileHeader.LENGTH + 16;

    private StoreIdFile() {
    }

    /** The id kept in {@code dataDir}, made and written first if there is none. */
    static UUID loadOrCreate(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE_NAME);
        Path tmp = dataDir.resolve(FILE_NAME + ".tmp");
        Files.deleteIfExists(tmp);
        if (!Files.exists(file)) {
            UUID id = UUID.randomUUID();
            write(tmp, id);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            Directories.fsync(dataDir);
            return id;
        }
        return read(file);
    }

    private static void write(Path tmp, UUID id) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        FileHeader.STORE_ID.write(buf);
        buf.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        buf.putInt(crc(buf.array()));
        buf.flip();
        try (FileChannel ch = io.mikyu.engine.internal.files.FileChannels.open(tmp, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
    }

    private static UUID read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        FileHeader.STORE_ID.check(buf, file);
        if (bytes.length != LENGTH) {
            throw damaged(file, Math.min(bytes.length, LENGTH), "store id file of " + bytes.length + " bytes, not "
                    + LENGTH);
        }
        if (buf.getInt(CRC_AT) != crc(bytes)) {
            throw damaged(file, CRC_AT, "store id fails its checksum");
        }
        return new UUID(buf.getLong(FileHeader.LENGTH), buf.getLong(FileHeader.LENGTH + 8));
    }

    private static CorruptionException damaged(Path file, long position, String what) {
        return new CorruptionException(file, position, what + " (restore the file from a backup, or delete it to"
                + " have a new id made: XA transaction managers then take the store for another resource manager)");
    }

    private static int crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, CRC_AT);
        return (int) crc.getValue();
    }
}
