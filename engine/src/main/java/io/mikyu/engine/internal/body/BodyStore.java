package io.mikyu.engine.internal.body;

import io.mikyu.engine.LargeBody;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.files.FileChannels;
import io.mikyu.engine.internal.format.BodyFileDescriptor;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The store's large message bodies, one file each in {@code <data>/bodies/}: written in chunks under
 * {@code pending/}, published by a rename, read lazily, deleted by a sweep once no live record names them.
 *
 * <p>Nothing records a deletion: a body is kept while a record refers to it, as the queues say at each
 * {@link #sweep}, so no crash can leave a body that is referred to but gone, and any it leaves unreferenced (a send
 * cut short, a transaction rolled back) is found by the next sweep.
 */
public final class BodyStore {

    public static final String DIRECTORY = "bodies";
    static final String PENDING = "pending";
    static final String SUFFIX = ".body";

    private final Path directory;
    private final Path pending;
    private final int chunkSize;
    /** Published bodies whose record may not be written yet: the sweep keeps them whatever the queues say. */
    private final Set<String> unreleased = ConcurrentHashMap.newKeySet();
    private int recoveredPending;
    /** Bodies the last sweep found unreferenced: deleted if the next one does too. */
    private Set<String> candidates = Set.of();

    private BodyStore(Path directory, int chunkSize) {
        this.directory = directory;
        this.pending = directory.resolve(PENDING);
        this.chunkSize = chunkSize;
    }

    /**
     * Opens the bodies directory of the store at {@code dataDir}, creating it durably, and deletes every pending
     * file: a body whose writer did not publish it before the process ended is never anybody's.
     *
     * @return the store; {@link #recoveredPending()} says how many pending files were deleted
     */
    public static BodyStore open(Path dataDir) throws IOException {
        return open(dataDir, BodyFileDescriptor.DEFAULT_CHUNK);
    }

    /** As {@link #open(Path)}, writing chunks of {@code chunkSize} bytes (1 .. 1 MiB). */
    public static BodyStore open(Path dataDir, int chunkSize) throws IOException {
        if (chunkSize < 1 || chunkSize > BodyFileDescriptor.MAX_CHUNK) {
            throw new IllegalArgumentException("chunk size must be 1 .. " + BodyFileDescriptor.MAX_CHUNK
                    + " bytes: " + chunkSize);
        }
        BodyStore store = new BodyStore(dataDir.resolve(DIRECTORY), chunkSize);
        Directories.createDurably(store.directory);
        Directories.createDurably(store.pending);
        store.recoveredPending = store.deletePending();
        return store;
    }

    /** Pending files deleted when this store was opened. */
    public int recoveredPending() {
        return recoveredPending;
    }

    /** Starts a new body; write it, then {@link BodyWriter#publish()} (or close it to discard it). */
    public BodyWriter create() throws IOException {
        String id = UUID.randomUUID().toString().replace("-", "");
        Path file = pending.resolve(id + SUFFIX);
        FileChannel ch = FileChannels.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            return new BodyWriter(this, id, file, ch, chunkSize);
        } catch (IOException | RuntimeException e) {
            ch.close();
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** Called by a writer: protects the id from the sweep, renames the file into place, fsyncs the directory. */
    void publish(BodyWriter writer, Path file) throws IOException {
        unreleased.add(writer.id());
        try {
            Files.move(file, fileOf(writer.id()), StandardCopyOption.ATOMIC_MOVE);
            Directories.fsync(directory);
        } catch (IOException | RuntimeException e) {
            unreleased.remove(writer.id());
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * The record naming {@code id} is written, or will never be: from now on the body lives only as long as the
     * queues refer to it.
     */
    public void released(String id) {
        unreleased.remove(id);
    }

    /** Reads a published body. */
    public BodyInputStream open(LargeBody body) throws IOException {
        return open(body.id());
    }

    /** Reads a published body. */
    public BodyInputStream open(String id) throws IOException {
        Path file = fileOf(checked(id));
        FileChannel ch;
        try {
            ch = FileChannels.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new MikyuException("no body " + id + " in " + directory);
        }
        try {
            return new BodyInputStream(file, ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Whether a body is published under {@code id}. */
    public boolean exists(String id) {
        return LargeBody.isValidId(id) && Files.exists(fileOf(id));
    }

    /**
     * Deletes every published body that neither this sweep nor the one before found named by a live record or
     * waiting for its record. The files are listed first, then the waiting ids taken, then the live ones asked
     * for: a body whose record was written before the waiting ids were taken is among the live ones, any other one
     * among the waiting. Two sweeps, so that a record moving from one queue to another (a dead letter) while the
     * queues are asked one by one is seen in one of them.
     *
     * @return the ids deleted
     */
    public synchronized List<String> sweep(Supplier<Set<String>> live) throws IOException {
        List<String> published = publishedIds();
        Set<String> waiting = Set.copyOf(unreleased);
        Set<String> referred = live.get();
        Set<String> unreferenced = new HashSet<>();
        List<String> deleted = new ArrayList<>();
        for (String id : published) {
            if (waiting.contains(id) || referred.contains(id)) {
                continue;
            }
            if (!candidates.contains(id)) {
                unreferenced.add(id);
            } else if (Files.deleteIfExists(fileOf(id))) {
                deleted.add(id);
            }
        }
        candidates = unreferenced;
        return deleted;
    }

    /** Ids of the published bodies, in no order. */
    public List<String> publishedIds() throws IOException {
        List<String> ids = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                String id = name.substring(0, name.length() - SUFFIX.length());
                if (LargeBody.isValidId(id)) {
                    ids.add(id);
                }
            }
        }
        return ids;
    }

    /** Bytes the published and pending bodies take on disk. */
    public long diskBytes() throws IOException {
        long sum = 0;
        for (Path dir : List.of(directory, pending)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
                for (Path f : files) {
                    try {
                        sum += Files.size(f);
                    } catch (NoSuchFileException gone) {
                        // deleted meanwhile: takes no space
                    }
                }
            }
        }
        return sum;
    }

    private int deletePending() throws IOException {
        int n = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(pending)) {
            for (Path f : files) {
                Files.deleteIfExists(f);
                n++;
            }
        }
        if (n > 0) {
            Directories.fsync(pending);
        }
        return n;
    }

    private Path fileOf(String id) {
        return directory.resolve(id + SUFFIX);
    }

    private static String checked(String id) {
        if (!LargeBody.isValidId(id)) {
            throw new IllegalArgumentException("not a body id (32 lowercase hex digits): '" + id + "'");
        }
        return id;
    }
}
