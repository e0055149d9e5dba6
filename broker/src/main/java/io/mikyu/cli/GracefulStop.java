package io.mikyu.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lets a long-running command end cleanly on Ctrl-C or SIGTERM: the shutdown hook asks the command to stop, then
 * holds the JVM (for at most {@code grace}) until the command has closed the store and cleaned up, i.e. until
 * {@link #close()}. Without it the JVM would exit with the store unflushed and a tail's last commit lost.
 *
 * <pre>
 * try (GracefulStop stop = new GracefulStop(() -> stopping = true, Duration.ofSeconds(5))) {
 *     ... loop until stopping, close the store ...
 * }
 * </pre>
 */
final class GracefulStop implements AutoCloseable {

    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread hook;

    GracefulStop(Runnable requestStop, Duration grace) {
        this(requestStop, grace, -1);
    }

    private GracefulStop(Runnable requestStop, Duration grace, int exitStatus) {
        hook = new Thread(() -> {
            requestStop.run();
            boolean clean = false;
            try {
                clean = done.await(grace.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (clean && exitStatus >= 0) {
                // Everything is closed; without this the JVM would report the signal (143 for SIGTERM).
                Runtime.getRuntime().halt(exitStatus);
            }
        }, "mikyu-graceful-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * As the constructor, for a service whose stop by signal is its normal end: once it has cleaned up within
     * {@code grace}, the process exits with {@code exitStatus} instead of the signal's status.
     */
    static GracefulStop exitingWith(int exitStatus, Runnable requestStop, Duration grace) {
        return new GracefulStop(requestStop, grace, exitStatus);
    }

    /** The command has finished and cleaned up; a shutdown in progress may go on. */
    @Override
    public void close() {
        done.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: the hook is running and has just been released.
        }
    }
}
