package io.mikyu.engine.internal.store;

import io.mikyu.engine.StoreLockedException;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Ownership of a data directory by one process at a time: an OS file lock on {@code mikyu.lock}, which the OS
 * releases when the process dies (so a crash never leaves a stale lock), plus the holder's pid, host and start
 * time written inside so the error can name it.
 */
final class DataDirectoryLock implements AutoCloseable {

    static final String FILE_NAME = "mikyu.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DataDirectoryLock acquire(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE_NAME);
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            ch.close();
            throw new StoreLockedException("data directory " + dataDir + " is already open in this process ("
                    + holder(file) + "); share the open Mikyu instead of opening it twice");
        }
        if (lock == null) {
            ch.close();
            throw new StoreLockedException("data directory " + dataDir + " is in use by another process ("
                    + holder(file) + ")");
        }
        String me = "pid " + ProcessHandle.current().pid() + " on " + hostName() + " since " + Instant.now();
        ch.truncate(0);
        ch.write(ByteBuffer.wrap((me + "\n").getBytes(StandardCharsets.UTF_8)), 0);
        ch.force(false);
        return new DataDirectoryLock(ch, lock);
    }

    private static String holder(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8).trim();
            return text.isEmpty() ? "holder unknown" : "held by " + text;
        } catch (IOException | RuntimeException e) {
            return "holder unknown";
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return ManagementFactory.getRuntimeMXBean().getName();
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
