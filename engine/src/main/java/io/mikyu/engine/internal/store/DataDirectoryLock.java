package io.mikyu.engine.internal.store;

import io.mikyu.engine.StoreLockedException;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ownership of a data directory by one process at a time: an OS file lock on {@code mikyu.lock}, which the OS
 * releases when the process dies (so a crash never leaves a stale lock), plus the holder's pid, host and start
 * time written inside so the error can name it.
 */
final class DataDirectoryLock implements AutoCloseable {

    static final String FILE_NAME = "mikyu.lock";

    /**
     * Directories this process holds, with their holder text. POSIX locks belong to the process, and closing any
     * descriptor of the file drops them, so a second open in this process must be refused from this map before
     * it touches the lock file at all.
     */
    private static final Map<Path, String> HELD_BY_THIS_PROCESS = new ConcurrentHashMap<>();

    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(Path key, FileChannel channel, FileLock lock) {
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    static DataDirectoryLock acquire(Path dataDir) throws IOException {
        Path key = dataDir.toRealPath();
        String me = "pid " + ProcessHandle.current().pid() + " on " + hostName() + " since " + Instant.now();
        String holder = HELD_BY_THIS_PROCESS.putIfAbsent(key, me);
        if (holder != null) {
            throw new StoreLockedException("data directory " + dataDir + " is already open in this process (held by "
                    + holder + "); share the open Mikyu instead of opening it twice");
        }
        Path file = dataDir.resolve(FILE_NAME);
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = ch.tryLock();
            if (lock == null) {
                String other = holder(ch);
                ch.close();
                throw new StoreLockedException("data directory " + dataDir + " is in use by another process ("
                        + other + ")");
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap((me + "\n").getBytes(StandardCharsets.UTF_8)), 0);
            ch.force(false);
            return new DataDirectoryLock(key, ch, lock);
        } catch (IOException | RuntimeException e) {
            HELD_BY_THIS_PROCESS.remove(key);
            if (ch != null && ch.isOpen()) {
                ch.close();
            }
            throw e;
        }
    }

    /** Reads the holder text through the channel we already have: opening the file again is what loses locks. */
    private static String holder(FileChannel ch) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(512);
            ch.read(buf, 0);
            String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).trim();
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
            HELD_BY_THIS_PROCESS.remove(key);
        }
    }
}
