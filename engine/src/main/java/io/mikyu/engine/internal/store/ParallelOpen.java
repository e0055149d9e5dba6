package io.mikyu.engine.internal.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens the queues not opened yet a few at a time, when every one is needed at once (the store's statistics and
 * recovery report, the {@code FAIL} corruption policy's open). Opening one queue is mostly waiting on the file
 * system (listing its folder, reading {@code queue.conf}, its index, offsets and the tail of its active segment),
 * so thousands of queues open several times faster with a few of them in flight than one after the other. Each
 * queue is still opened, and its torn tail repaired, by exactly one thread; only the order among queues changes.
 */
final class ParallelOpen {

    /** Queues opened at once: enough to overlap the file system's waits, few enough not to crowd the machine. */
    static final int THREADS = Math.max(2, Math.min(8, 2 * Runtime.getRuntime().availableProcessors()));

    /** One queue's open. */
    interface Step {
        void run() throws IOException;
    }

    private ParallelOpen() {
    }

    /**
     * Runs every step and returns once all have ended. If any failed, throws the first failure (in the steps'
     * order) with the others suppressed, after every other step has ended, so that the caller can close what did
     * open.
     */
    static void runAll(List<Step> steps) throws IOException {
        if (steps.size() <= 1) {
            for (Step s : steps) {
                s.run();
            }
            return;
        }
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(THREADS, steps.size()), r -> {
            Thread t = new Thread(r, "mikyu-open-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> running = new ArrayList<>(steps.size());
            for (Step s : steps) {
                running.add(pool.submit(() -> {
                    s.run();
                    return null;
                }));
            }
            Throwable first = null;
            for (Future<?> f : running) {
                Throwable failure = outcome(f);
                if (failure == null) {
                    continue;
                }
                if (first == null) {
                    first = failure;
                } else if (first != failure) {
                    first.addSuppressed(failure);
                }
            }
            if (first instanceof IOException io) {
                throw io;
            } else if (first instanceof RuntimeException re) {
                throw re;
            } else if (first instanceof Error err) {
                throw err;
            } else if (first != null) {
                throw new IOException(first);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Waits for a step; its failure, or null. Uninterruptibly: a step still running writes into the registries,
     * and the caller's clean-up after a failure must not race with it. The interrupt is kept for the caller.
     */
    private static Throwable outcome(Future<?> f) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    f.get();
                    return null;
                } catch (ExecutionException e) {
                    return e.getCause();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
