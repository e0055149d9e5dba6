package io.mikyu.engine.internal.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.function.BiFunction;

/**
 * Where the engine opens the files whose fsyncs carry its durability: segments, the offsets file, small metadata
 * files written through a rename, and directories. One place, so that fault tests can wrap the channels (a failing
 * fsync, a full disk or a power loss cannot be provoked on a healthy disk) without touching the rest of the engine.
 */
public final class FileChannels {

    /** Set only by tests: wraps every channel opened here. */
    static volatile BiFunction<Path, FileChannel, FileChannel> wrapper;

    private FileChannels() {
    }

    public static FileChannel open(Path file, OpenOption... options) throws IOException {
        FileChannel channel = FileChannel.open(file, options);
        BiFunction<Path, FileChannel, FileChannel> w = wrapper;
        if (w == null) {
            return channel;
        }
        try {
            return w.apply(file, channel);
        } catch (UncheckedIOException e) { // a wrapper standing for a disk that fails
            channel.close();
            throw e.getCause();
        }
    }
}
