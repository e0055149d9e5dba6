package io.mikyu.engine.internal.task;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.internal.format.FileHeader;
import io.mikyu.engine.internal.format.OffsetsDescriptor;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.files.FileChannels;
import io.mikyu.engine.internal.files.Quarantine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Durable committed offsets of a queue's consumer groups, in the side file {@code offsets.log}
 * ({@link OffsetsDescriptor}), written with the first commit (a queue without groups has none). A commit appends
 * one checksummed entry and fsyncs before returning. Commits are
 * rare next to appends (one per poll loop, not per record), so they take a lock instead of the writer thread.
 * The file is open only during a commit: an open and a close cost microseconds next to its fsync, and a store with
 * ten thousand subscribed topics would otherwise hold ten thousand descriptors for them.
 */
public final class OffsetStore implements AutoCloseable {

    public static final String FILE_NAME = "offsets.log";

    /** Rewrite the file once it is this much larger than its live entries need. */
    private static final long REWRITE_SLACK = 1 << 20;

    private final Path file;
    private final Map<String, Long> committed = new TreeMap<>();
    private long size;
    private boolean closed;

    private OffsetStore(Path file) {
        this.file = file;
    }

    /** Opens (or creates) the offsets file, cutting a torn tail and reporting damage as the policy says. */
    public static OffsetStore open(Path queueDir, EngineConfig engine, Consumer<RecoveryReport.Event> report)
            throws IOException {
        OffsetStore store = new OffsetStore(queueDir.resolve(FILE_NAME));
        store.load(queueDir, engine, report);
        return store;
    }

    private void load(Path queueDir, EngineConfig engine, Consumer<RecoveryReport.Event> report) throws IOException {
        Files.deleteIfExists(file.resolveSibling(FILE_NAME + ".tmp"));
        if (!Files.exists(file)) {
            return; // no group yet: the file is written with the first commit
        }
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        boolean headerOk;
        try {
            FileHeader.OFFSETS.check(buf, file);
            headerOk = true;
        } catch (CorruptionException e) {
            headerOk = false;
        }
        int pos = FileHeader.LENGTH;
        String problem = headerOk ? null : "bad file header";
        int problemAt = headerOk ? -1 : 0;
        while (headerOk && pos < bytes.length) {
            if (bytes.length - pos < OffsetsDescriptor.NAME_OFFSET) {
                problem = "incomplete entry";
                problemAt = pos;
                break;
            }
            int length = buf.getInt(pos + OffsetsDescriptor.LENGTH_OFFSET);
            int nameLength = buf.getShort(pos + OffsetsDescriptor.NAME_LENGTH_OFFSET) & 0xFFFF;
            if (length != OffsetsDescriptor.FIXED_BODY + nameLength || pos + 8L + length > bytes.length) {
                problem = pos + 8L + length > bytes.length && length == OffsetsDescriptor.FIXED_BODY + nameLength
                        ? "incomplete entry" : "implausible entry length " + length;
                problemAt = pos;
                break;
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes, pos + OffsetsDescriptor.OFFSET_OFFSET, length);
            if ((int) crc.getValue() != buf.getInt(pos + OffsetsDescriptor.CRC_OFFSET)) {
                problem = "entry fails its checksum";
                problemAt = pos;
                break;
            }
            long offset = buf.getLong(pos + OffsetsDescriptor.OFFSET_OFFSET);
            String group = new String(bytes, pos + OffsetsDescriptor.NAME_OFFSET, nameLength, StandardCharsets.UTF_8);
            if (offset == OffsetsDescriptor.DELETED) {
                committed.remove(group);
            } else {
                committed.put(group, offset);
            }
            pos += 8 + length;
        }
        if (problem != null) {
            // Zeros after the last entry: the file length reached the disk before the data did.
            boolean torn = problem.startsWith("incomplete") || allZero(bytes, problemAt);
            if (!torn && engine.corruptionPolicy() == EngineConfig.CorruptionPolicy.FAIL) {
                throw new CorruptionException(file, problemAt, problem + " (corruptionPolicy=FAIL)");
            }
            if (torn) {
                report.accept(new RecoveryReport.Event(RecoveryReport.Kind.TORN_TAIL_TRUNCATED, file.toString(),
                        problemAt, problem + "; cut " + (bytes.length - problemAt) + " bytes"));
            } else {
                Path copy = Quarantine.copy(file, queueDir);
                report.accept(new RecoveryReport.Event(RecoveryReport.Kind.CORRUPTION_QUARANTINED, file.toString(),
                        problemAt, problem + "; commits before byte " + problemAt + " kept, original copied to "
                        + copy.getFileName()));
            }
            rewrite();
            return;
        }
        size = bytes.length;
    }

    private static boolean allZero(byte[] bytes, int from) {
        if (from < FileHeader.LENGTH) {
            return false;
        }
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** The committed next offset of {@code group}: {@code NO_COMMIT} if it exists uncommitted, null if unknown. */
    public synchronized Long committed(String group) {
        return committed.get(group);
    }

    public synchronized List<String> groups() {
        return new ArrayList<>(committed.keySet());
    }

    /** Durably records {@code offset} for {@code group} (or a deletion / no-commit marker). */
    public synchronized void commit(String group, long offset) {
        if (closed) {
            throw new io.mikyu.engine.StoreClosedException("offsets of " + file.getParent().getFileName()
                    + " are closed");
        }
        try {
            if (size == 0) { // no file yet: write it whole, with this entry
                Long before = committed.get(group);
                put(group, offset);
                try {
                    rewrite();
                } catch (IOException | RuntimeException e) {
                    if (before == null) {
                        committed.remove(group);
                    } else {
                        committed.put(group, before);
                    }
                    throw e;
                }
                return;
            }
            ByteBuffer entry = encode(group, offset);
            long pos = size;
            try (FileChannel channel = FileChannels.open(file, StandardOpenOption.WRITE)) {
                while (entry.hasRemaining()) {
                    pos += channel.write(entry, pos);
                }
                channel.force(false);
            }
            size = pos;
            put(group, offset);
            if (size > REWRITE_SLACK + (long) committed.size() * 128) {
                rewrite();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("committing offset of group '" + group + "' to " + file, e);
        }
    }

    private void put(String group, long offset) {
        if (offset == OffsetsDescriptor.DELETED) {
            committed.remove(group);
        } else {
            committed.put(group, offset);
        }
    }

    private static ByteBuffer encode(String group, long offset) {
        byte[] name = group.getBytes(StandardCharsets.UTF_8);
        int length = OffsetsDescriptor.FIXED_BODY + name.length;
        ByteBuffer entry = ByteBuffer.allocate(8 + length).order(ByteOrder.LITTLE_ENDIAN);
        entry.putInt(OffsetsDescriptor.LENGTH_OFFSET, length);
        entry.putLong(OffsetsDescriptor.OFFSET_OFFSET, offset);
        entry.putLong(OffsetsDescriptor.TIMESTAMP_OFFSET, System.currentTimeMillis());
        entry.putShort(OffsetsDescriptor.NAME_LENGTH_OFFSET, (short) name.length);
        entry.put(OffsetsDescriptor.NAME_OFFSET, name);
        CRC32C crc = new CRC32C();
        crc.update(entry.array(), OffsetsDescriptor.OFFSET_OFFSET, length);
        entry.putInt(OffsetsDescriptor.CRC_OFFSET, (int) crc.getValue());
        return entry;
    }

    /** Writes the live entries to a new file and renames it over the old one. */
    private void rewrite() throws IOException {
        Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
        ByteBuffer header = ByteBuffer.allocate(FileHeader.LENGTH);
        FileHeader.OFFSETS.write(header);
        header.flip();
        long pos;
        try (FileChannel ch = FileChannels.open(tmp, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            pos = ch.write(header, 0);
            for (Map.Entry<String, Long> e : committed.entrySet()) {
                ByteBuffer entry = encode(e.getKey(), e.getValue());
                while (entry.hasRemaining()) {
                    pos += ch.write(entry, pos);
                }
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Directories.fsync(file.getParent());
        size = pos;
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
    }
}
