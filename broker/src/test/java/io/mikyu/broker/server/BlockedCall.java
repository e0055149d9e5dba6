package io.mikyu.broker.server;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * A call that waits (a long poll, a waiting dequeue) run on a thread of its own, so that a test can act once the
 * call is under way and blocked in it, rather than after a guessed pause.
 */
final class BlockedCall<T> implements AutoCloseable {

    private final CompletableFuture<T> result = new CompletableFuture<>();
    private final Thread thread;
    private volatile boolean started;

    private BlockedCall(Callable<T> call) {
        thread = new Thread(() -> {
            started = true;
            try {
                result.complete(call.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "blocked-call");
        thread.setDaemon(true);
    }

    /** Starts {@code call} and returns once its thread is parked inside it (or the call has already ended). */
    static <T> BlockedCall<T> start(Callable<T> call) {
        BlockedCall<T> c = new BlockedCall<>(call);
        c.thread.start();
        await("the call to be under way and waiting").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(5)).until(c::blockedOrDone);
        return c;
    }

    private boolean blockedOrDone() {
        Thread.State state = thread.getState();
        return result.isDone() || started && (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING);
    }

    boolean isDone() {
        return result.isDone();
    }

    /** The call's result, waiting at most {@code timeout}; its failure as the {@link ExecutionException}'s cause. */
    T get(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        return result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
