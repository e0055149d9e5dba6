package io.mikyu.broker.faults;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * What every fault scenario shares: its number of cycles ({@code -Dmikyu.faults.cycles=N}; the profile
 * {@code -Pfaults} sets 100), its random seed ({@code -Dmikyu.faults.seed=S} replays a failed run; named in every
 * failure), and the ports the scenarios listen on.
 */
final class Faults {

    static final String CYCLES = "mikyu.faults.cycles";
    static final String SEED = "mikyu.faults.seed";

    /** The first of the scenarios' three loopback ports ({@code -Dmikyu.faults.ports=P} moves them to P..P+2). */
    static final String PORTS = "mikyu.faults.ports";

    /** The loopback ports of the process-fault scenarios: one each, so they may run side by side. */
    static final int DAEMON_KILL_PORT = Integer.getInteger(PORTS, 21200);
    static final int CONSUMER_KILL_PORT = DAEMON_KILL_PORT + 1;
    static final int DAEMON_STOP_PORT = DAEMON_KILL_PORT + 2;

    private Faults() {
    }

    static int cycles(int scenarioDefault) {
        int n = Integer.getInteger(CYCLES, scenarioDefault);
        if (n < 1) {
            throw new IllegalArgumentException(CYCLES + " must be at least 1: " + n);
        }
        return n;
    }

    /**
     * The whole run's bound: a backstop against a hang, generous so that a loaded machine (a cycle takes several
     * times longer there) does not end a run that breaks no invariant. Liveness is asserted by each step's own
     * await (e.g. "the clients delivered nothing after the restart"), not by this bound.
     */
    static Duration backstop(int cycles) {
        return Duration.ofMinutes(5).plus(Duration.ofMinutes(2).multipliedBy(cycles));
    }

    static long seed() {
        Long given = Long.getLong(SEED);
        return given != null ? given : System.nanoTime();
    }

    /**
     * Lets {@code duration} pass: the time between two faults, chosen by the scenario's schedule. Never used to wait
     * for something to happen (that is an await with a deadline).
     */
    static void pause(Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        for (long left = duration.toNanos(); left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Polls {@code probe} until it is true; fails with {@code what} (evaluated then) after {@code timeout}. */
    static void await(Duration timeout, Supplier<String> what, Callable<Boolean> probe) {
        try {
            Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(50)).until(probe);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("not within " + timeout + ": " + what.get(), e);
        }
    }
}
