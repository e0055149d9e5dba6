package io.mikyu.broker.xa;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** Waiting for a condition with a deadline (never a fixed sleep): the tests' only way to wait for time to pass. */
final class Await {

    private Await() {
    }

    /** Polls {@code probe} until it returns true; fails with {@code what} (evaluated then) after {@code timeout}. */
    static void until(Duration timeout, Supplier<String> what, Callable<Boolean> probe) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!probe.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what.get());
            }
            Thread.sleep(20);
        }
    }
}
