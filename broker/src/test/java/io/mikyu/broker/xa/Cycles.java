package io.mikyu.broker.xa;

import org.junit.jupiter.api.function.Executable;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * How many crash cycles each crash test runs: {@code -Dmikyu.xa.cycles=N} (the Maven profile {@code xa-crash} sets
 * 20), else the class's default — 20 where the class stays within about two minutes on two cores, {@link #DEFAULT}
 * otherwise; and the time a test of that many cycles may take.
 */
final class Cycles {

    static final String PROPERTY = "mikyu.xa.cycles";
    static final int DEFAULT = 5;

    private Cycles() {
    }

    static int count() {
        return count(DEFAULT);
    }

    static int count(int classDefault) {
        String value = System.getProperty(PROPERTY, "");
        int n = value.isBlank() ? classDefault : Integer.parseInt(value.trim());
        if (n < 1) {
            throw new IllegalArgumentException(PROPERTY + " must be at least 1: " + value);
        }
        return n;
    }

    /** Runs {@code test}, failing it if it takes more than a minute plus {@code perCycle} for each cycle. */
    static void within(Duration perCycle, Executable test) {
        within(perCycle, DEFAULT, test);
    }

    static void within(Duration perCycle, int classDefault, Executable test) {
        assertTimeoutPreemptively(Duration.ofMinutes(1).plus(perCycle.multipliedBy(count(classDefault))), test);
    }
}
