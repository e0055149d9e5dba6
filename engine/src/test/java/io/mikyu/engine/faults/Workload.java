package io.mikyu.engine.faults;

import io.mikyu.engine.Mikyu;

import java.util.Random;

/**
 * One kind of work a power loss interrupts. It runs operations on a store, keeping its own record of what was
 * attempted and what was acknowledged, then checks the store reopened after the power loss against that record.
 * An instance serves one cycle.
 */
interface Workload {

    String name();

    /** One operation (the first ones create the queues). Throws when the store fails it, e.g. once the power is gone. */
    void step(Mikyu store, Random random) throws Exception;

    /**
     * Checks the invariants on the store reopened after the power loss (which happened at {@code cutNanos}, in
     * {@link System#nanoTime()}); adds what it counted to {@code tally}.
     */
    void verify(Mikyu store, Tally tally, long cutNanos) throws Exception;
}
