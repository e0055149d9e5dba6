package io.mikyu.engine.internal.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.function.BiFunction;

/**
 * Where the engine opens the files whose fsyncs carry its durability: segments, small metadata files written
 * through a rename, and directories. One place, so that fault tests can wrap the channels (a failing fsync cannot
 * be provoked on a healthy disk) without touching the rest of the engine.
 */
public final class FileChannels {

    /** Set only by tests: wraps every channel opened here. */
    static volatile BiFunction<Path, FileChannel, FileChannel> wrapper;

    private FileChannels() {
    }

    public static FileChannel open(Path file, OpenOption... options) throws IOException {
        FileChannel channel = FileChannel.open(file, options);
        BiFunction<Path, FileChannel, FileChannel> w = wrapper;
        return w == null ? channel : w.apply(file, channel);
    }
}
