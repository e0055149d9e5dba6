package io.mikyu.broker.xa;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** Waiting for a condition with a deadline (never a fixed sleep): the tests' only way to wait for time to pass. */
final class Await {

    private Await() {
    }

    /** Returns as soon as the wall clock is past {@code epochMillis} (spinning: within a millisecond of it). */
    static void clockPast(long epochMillis, Duration atMost) {
        long giveUp = System.nanoTime() + atMost.toNanos();
        while (System.currentTimeMillis() <= epochMillis) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("the clock did not pass " + epochMillis + " within " + atMost);
            }
            Thread.onSpinWait();
        }
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
