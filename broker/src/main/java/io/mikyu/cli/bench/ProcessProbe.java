package io.mikyu.cli.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this process holds: heap in use after a full collection, open file descriptors ({@code /proc/self/fd},
 * Linux only: -1 elsewhere) and the CPU time it has used.
 */
public final class ProcessProbe {

    private static final Path FDS = Path.of("/proc/self/fd");

    private ProcessProbe() {
    }

    /** Heap bytes still reachable: used heap after {@link System#gc()} (a full collection in HotSpot's defaults). */
    public static long heapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** Open file descriptors of this process, or -1 where {@code /proc/self/fd} does not exist. */
    public static long openFileDescriptors() {
        if (!Files.isDirectory(FDS)) {
            return -1;
        }
        long n = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(FDS)) {
            for (Path ignored : fds) {
                n++;
            }
        } catch (IOException e) {
            return -1;
        }
        return n - 1; // the directory stream's own descriptor
    }

    /** CPU time this process has used, in nanoseconds (all threads, user and system), or -1 if unknown. */
    public static long cpuTimeNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
