package io.mikyu.engine.faults;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Enqueue, lease, ack and nack on a sync task queue. Afterwards every task whose enqueue was acknowledged and that
 * was not (maybe) acked is there, once; no task whose ack was acknowledged comes back; nothing unknown appears.
 */
final class TaskWorkload implements Workload {

    static final Duration LEASE = Duration.ofSeconds(2);
    static final TaskQueueConfig CONFIG = TaskQueueConfig.defaults().withDurability(Durability.SYNC)
            .withMaxAttempts(1000).withBackoff(Duration.ofMillis(10), 1.0, Duration.ofMillis(10))
            .withDefaultLease(LEASE).withSegmentBytes(8192);

    private final Set<String> attempted = new HashSet<>();
    private final Set<String> enqueued = new HashSet<>();
    private final Map<String, LeasedTask> leased = new LinkedHashMap<>();
    private final Set<String> ackAttempted = new HashSet<>();
    private final Set<String> acked = new HashSet<>();
    private boolean created;
    private int n;
    private long acknowledged;

    @Override
    public String name() {
        return "task queue";
    }

    @Override
    public void step(Mikyu store, Random random) throws InterruptedException {
        if (!created) {
            store.getOrCreateTaskQueue("jobs", CONFIG);
            created = true;
            return;
        }
        TaskQueue jobs = store.taskQueue("jobs");
        int op = random.nextInt(10);
        if (op < 4 || leased.isEmpty() && op >= 6) {
            List<String> batch = new ArrayList<>();
            for (int i = 1 + random.nextInt(2); i > 0; i--) {
                batch.add("t" + n++ + "-" + "y".repeat(random.nextInt(400)));
            }
            attempted.addAll(batch);
            jobs.enqueueBatch(batch.stream().map(Task::of).toList());
            enqueued.addAll(batch);
            acknowledged++;
        } else if (op < 6) {
            for (LeasedTask t : jobs.dequeue(1 + random.nextInt(3), LEASE, Duration.ZERO, null)) {
                leased.put(t.payloadAsString(), t);
            }
            acknowledged++;
        } else {
            List<String> held = new ArrayList<>(leased.keySet());
            String payload = held.get(random.nextInt(held.size()));
            LeasedTask t = leased.remove(payload);
            try {
                if (op < 9) {
                    ackAttempted.add(payload);
                    jobs.ack(List.of(t.token()), Durability.SYNC);
                    acked.add(payload);
                } else {
                    jobs.nack(t.token(), Duration.ZERO, "tried");
                }
                acknowledged++;
            } catch (StaleLeaseException expired) {
                // the lease ended first (a slow machine): the task is back in the queue, not acked
            }
        }
    }

    @Override
    public void verify(Mikyu store, Tally tally, long cutNanos) throws InterruptedException {
        tally.acknowledged += acknowledged;
        if (!store.list(QueueKind.TASK).contains("jobs")) {
            assertThat(enqueued).as("no queue, so no enqueue may have been acknowledged").isEmpty();
            return;
        }
        List<String> drained = TaskDrain.drain(store.taskQueue("jobs"), 0);
        check(drained, attempted, enqueued, ackAttempted, acked, tally);
    }

    /** The checks every task workload makes on what a queue holds after the fault. */
    static void check(List<String> drained, Set<String> attempted, Set<String> enqueued, Set<String> ackAttempted,
                      Set<String> acked, Tally tally) {
        Set<String> found = new HashSet<>(drained);
        assertThat(drained).as("each task at most once").doesNotHaveDuplicates();
        assertThat(attempted).as("nothing that was never enqueued").containsAll(found);
        Set<String> back = new HashSet<>(found);
        back.retainAll(acked);
        tally.reappeared += back.size();
        assertThat(back).as("tasks whose ack was acknowledged must not come back").isEmpty();
        Set<String> missing = new HashSet<>(enqueued);
        missing.removeAll(ackAttempted);
        missing.removeAll(found);
        tally.lost += missing.size();
        assertThat(missing).as("acknowledged enqueues that were never acked must survive").isEmpty();
    }
}
