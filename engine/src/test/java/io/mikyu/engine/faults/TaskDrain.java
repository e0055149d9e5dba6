package io.mikyu.engine.faults;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Takes every task queues hold, waiting for leases from before a fault to end (with a generous deadline). */
final class TaskDrain {

    /** Longer than the engine's timer tick, so a move to a dead-letter queue under way shows on the next look. */
    private static final long QUIET_NANOS = Duration.ofMillis(300).toNanos();

    private TaskDrain() {
    }

    /**
     * Leases (for long) everything in {@code q} until nothing is ready, scheduled, or leased by anyone else than
     * this drain and {@code heldElsewhere} (tasks a prepared transaction holds); returns the payloads taken.
     */
    static List<String> drain(TaskQueue q, long heldElsewhere) throws InterruptedException {
        return drain(List.of(q), heldElsewhere).get(0);
    }

    /**
     * As {@link #drain(TaskQueue, long)} for queues between which tasks move (a queue and its dead-letter queue):
     * done once all of them were quiet at two looks {@link #QUIET_NANOS} apart.
     */
    static List<List<String>> drain(List<TaskQueue> queues, long heldElsewhere) throws InterruptedException {
        List<List<String>> taken = new ArrayList<>();
        queues.forEach(q -> taken.add(new ArrayList<>()));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long quietSince = -1;
        while (System.nanoTime() < deadline) {
            boolean quiet = true;
            for (int i = 0; i < queues.size(); i++) {
                TaskQueue q = queues.get(i);
                for (LeasedTask t : q.dequeue(100, Duration.ofMinutes(10), Duration.ofMillis(50), null)) {
                    taken.get(i).add(t.payloadAsString());
                    quiet = false;
                }
                TaskCounts c = q.counts();
                quiet &= c.ready() == 0 && c.scheduled() == 0
                        && c.inFlight() == taken.get(i).size() + (i == 0 ? heldElsewhere : 0);
            }
            if (!quiet) {
                quietSince = -1;
            } else if (quietSince < 0) {
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= QUIET_NANOS) {
                return taken;
            }
        }
        throw new AssertionError("queues still hold tasks after 60 s: " + queues.stream()
                .map(q -> q.name() + " " + q.counts()).toList() + ", drained " + taken);
    }
}
