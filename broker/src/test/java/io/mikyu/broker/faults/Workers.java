package io.mikyu.broker.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client threads of a scenario (producers and consumers), each looping until {@link #stop()}: an expected
 * failure of one step (the broker went away) is counted and the loop goes on; anything else that escapes a step
 * ends the thread and is reported by {@link #assertHealthy(String)}.
 */
final class Workers implements AutoCloseable {

    /** One step of a worker's loop. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final AtomicLong expectedFailures = new AtomicLong();

    /** Starts a thread running {@code step} until stopped; {@code step} counts its own expected failures. */
    void start(String name, Step step) {
        Thread t = new Thread(() -> {
            while (!stopping.get()) {
                try {
                    step.run();
                } catch (InterruptedException e) {
                    if (!stopping.get()) {
                        failures.add(name + ": interrupted");
                    }
                    return;
                } catch (Throwable e) {
                    if (!stopping.get()) {
                        failures.add(name + ": " + e);
                        e.printStackTrace();
                    }
                    return;
                }
            }
        }, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    boolean stopping() {
        return stopping.get();
    }

    /** A failure the scenario causes on purpose (a send or commit while the broker is down). */
    void expectedFailure() {
        expectedFailures.incrementAndGet();
    }

    long expectedFailures() {
        return expectedFailures.get();
    }

    void assertHealthy(String where) {
        if (!failures.isEmpty()) {
            throw new AssertionError(where + ": client threads failed: " + failures);
        }
        for (Thread t : threads) {
            if (!t.isAlive() && !stopping.get()) {
                throw new AssertionError(where + ": client thread " + t.getName() + " ended");
            }
        }
    }

    /** Stops every thread and waits for them (each step returns within its receive timeout). */
    void stop() throws InterruptedException {
        stopping.set(true);
        for (Thread t : threads) {
            t.join(60_000);
            if (t.isAlive()) {
                throw new AssertionError("client thread " + t.getName() + " did not stop");
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
