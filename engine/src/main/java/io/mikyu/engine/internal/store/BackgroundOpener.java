package io.mikyu.engine.internal.store;

import io.mikyu.engine.StoreClosedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Opens, one at a time on a thread of its own at the lowest priority, the queues found at store open that nobody
 * has used yet, so that what only an open queue does (retention by time, the sweep of large bodies, the timer's
 * leases and delays) reaches every queue while the store's open itself stays one listing of its folders. A first
 * use on another thread opens its queue at once; the two share the open when they meet.
 */
final class BackgroundOpener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundOpener.class);

    private final List<QueueRegistry<?, ?>> registries;
    private final Thread thread;
    private volatile boolean stopped;

    BackgroundOpener(List<QueueRegistry<?, ?>> registries) {
        this.registries = registries;
        this.thread = new Thread(this::run, "mikyu-opener");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    private void run() {
        long started = System.nanoTime();
        int failed = 0;
        for (QueueRegistry<?, ?> registry : registries) {
            for (String name : registry.unopened().keySet()) {
                if (stopped) {
                    return;
                }
                try {
                    registry.find(name);
                } catch (StoreClosedException e) {
                    return;
                } catch (RuntimeException | Error e) {
                    failed++; // left unopened: its first use tries again and reports it
                    LOG.warn("opening queue '{}' in the background failed", name, e);
                }
            }
        }
        LOG.info("opened the store's remaining queues in the background in {} ms ({} failed)",
                (System.nanoTime() - started) / 1_000_000, failed);
    }

    /** Stops after the queue being opened, if any (not interrupted: that would close its file channels). */
    @Override
    public void close() {
        stopped = true;
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
