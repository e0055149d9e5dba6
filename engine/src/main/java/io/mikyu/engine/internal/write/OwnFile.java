package io.mikyu.engine.internal.write;

import io.mikyu.engine.internal.files.FileChannels;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file a thread that fsyncs beside the writer keeps open for itself (one at a time: the segment it fsyncs).
 *
 * <p>Why its own: Linux reports a write-back error once per open file description. Two threads fsyncing through
 * one descriptor at once could see one error between them, and the one that saw none would acknowledge writes whose
 * pages the kernel dropped. With a descriptor each, every fsync that waited on the failed write-back sees the error.
 */
public final class OwnFile implements AutoCloseable {

    private Path file;
    private FileChannel channel;

    /** This thread's channel to {@code path}, opened (through {@link FileChannels}) on first use. */
    public FileChannel channel(Path path) throws IOException {
        if (channel == null || !path.equals(file)) {
            close();
            channel = FileChannels.open(path, StandardOpenOption.WRITE);
            file = path;
        }
        return channel;
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing was written through it: closing it loses nothing
            }
        }
        channel = null;
        file = null;
    }
}
