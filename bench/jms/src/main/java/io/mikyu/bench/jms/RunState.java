package io.mikyu.bench.jms;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * What the producers, the consumers and the run share: the measured window on {@link System#nanoTime()} (unset
 * until the warm-up is over, and in rate cases until the backlog of the warm-up has drained), when consumers stop,
 * and the first failure of any client, which ends the run.
 */
final class RunState {

    private volatile long windowStart = Long.MAX_VALUE;
    private volatile long windowEnd = Long.MAX_VALUE;
    private volatile boolean consumersStop;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    void openWindow(long start, long end) {
        windowStart = start;
        windowEnd = end;
    }

    long windowStart() {
        return windowStart;
    }

    long windowEnd() {
        return windowEnd;
    }

    void stopConsumers() {
        consumersStop = true;
    }

    boolean consumersStopped() {
        return consumersStop;
    }

    void fail(Throwable t) {
        if (failure.compareAndSet(null, t)) {
            System.err.println("jms-bench: " + Thread.currentThread().getName() + " failed: " + t);
            t.printStackTrace();
        }
    }

    boolean failed() {
        return failure.get() != null;
    }

    Throwable failure() {
        return failure.get();
    }

    /** Waits until {@code deadline} (nanoTime): sleeps while far from it, parks for the last milliseconds. */
    static void waitUntil(long deadline) throws InterruptedException {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            if (left > 2_000_000) {
                Thread.sleep(Math.min(left / 1_000_000 - 1, 100));
            } else {
                LockSupport.parkNanos(left);
            }
        }
    }
}
