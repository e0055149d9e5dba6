package io.mikyu.engine.support;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * A blocking call run on a thread of its own, so that a test can see it park before it acts: a long poll is only
 * proven to be woken by an event if it was already waiting when the event happened.
 */
public final class BackgroundCall<T> implements AutoCloseable {

    /** Generous: the machines that run the tests may be loaded; a failing test waits this long, a passing one not. */
    public static final Duration DEADLINE = Duration.ofSeconds(30);

    private final FutureTask<T> task;
    private final Thread thread;

    private BackgroundCall(String name, Callable<T> call) {
        this.task = new FutureTask<>(call);
        this.thread = new Thread(task, name);
        this.thread.setDaemon(true);
    }

    /** Starts {@code call} on a new thread named {@code name}. */
    public static <T> BackgroundCall<T> start(String name, Callable<T> call) {
        BackgroundCall<T> c = new BackgroundCall<>(name, call);
        c.thread.start();
        return c;
    }

    /**
     * Waits until the call is parked in a timed wait (a long poll waiting for work; a lock or an idle pool would
     * be an untimed wait) or has finished, which the caller's next assertion tells apart.
     */
    public BackgroundCall<T> awaitTimedWaiting() {
        await().atMost(DEADLINE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                .until(() -> task.isDone() || thread.getState() == Thread.State.TIMED_WAITING);
        return this;
    }

    /** Interrupts the call's thread (as a caller giving up would). */
    public void interrupt() {
        thread.interrupt();
    }

    public boolean isDone() {
        return task.isDone();
    }

    /** The call's result, waiting up to {@link #DEADLINE}; its failure is rethrown as the cause. */
    public T get() throws InterruptedException, ExecutionException, TimeoutException {
        return task.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Interrupts the call if it is still running and waits for its thread to end. */
    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(DEADLINE.toMillis());
    }
}
