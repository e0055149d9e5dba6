package io.mikyu.engine.internal.task;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The task queues and shared groups of a store that wait for a time: a lease that will end or a delayed task that
 * will come due. The store's timer visits only these, so an idle store's timer costs nothing per queue (visiting
 * every one of 20,000 task queues ten times a second, even to read one field, was several percent of a core).
 *
 * <p>A ledger joins when its next change goes from none to some time ({@link TaskQueueState}) and leaves when the
 * timer finds it with nothing left to wait for, or closed. Leaving takes it out first and then looks again, so a
 * ledger that was armed meanwhile is put back: none that waits is ever left out.
 */
public final class DueLedgers {

    private final Set<LeaseLedger> armed = ConcurrentHashMap.newKeySet();

    /** Visits {@code queue}'s ledger from now on whenever it waits for a time (at once if it already does). */
    public void track(TaskQueueHandle queue) {
        track(queue.ledger);
    }

    /** As {@link #track(TaskQueueHandle)}, for a shared group. */
    public void track(SharedGroupHandle group) {
        track(group.ledger);
    }

    private void track(LeaseLedger ledger) {
        ledger.state.onArmed(() -> armed.add(ledger));
    }

    /** Ledgers visited by the next tick. */
    public int size() {
        return armed.size();
    }

    /**
     * One round of the timer: each armed ledger applies the clock if something is due; those left with nothing to
     * wait for (or closed) leave the set.
     *
     * @param failed told of a ledger whose tick threw (its name, the failure); the others go on
     */
    public void tick(BiConsumer<String, RuntimeException> failed) {
        for (LeaseLedger ledger : armed) {
            try {
                ledger.tick();
            } catch (RuntimeException e) {
                failed.accept(ledger.name, e);
            }
            if (!ledger.waitsForTime()) {
                armed.remove(ledger);
                if (ledger.waitsForTime()) {
                    armed.add(ledger); // armed between the look and the removal
                }
            }
        }
    }
}
