package io.mikyu.engine.faults;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;

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
 * Tasks nacked until their second delivery moves them to the dead-letter queue. Afterwards a task is in its queue
 * or in the dead-letter queue, never both and never twice; a move whose nack was acknowledged is in the dead-letter
 * queue; what the task workload checks holds over both queues together.
 */
final class DeadLetterWorkload implements Workload {

    private final Set<String> attempted = new HashSet<>();
    private final Set<String> enqueued = new HashSet<>();
    private final Map<String, LeasedTask> leased = new LinkedHashMap<>();
    private final Set<String> ackAttempted = new HashSet<>();
    private final Set<String> acked = new HashSet<>();
    private final Set<String> deadLettered = new HashSet<>();
    private boolean created;
    private int n;
    private long acknowledged;

    @Override
    public String name() {
        return "dead letters";
    }

    @Override
    public void step(Mikyu store, Random random) throws InterruptedException {
        if (!created) {
            store.getOrCreateTaskQueue("dl", TaskWorkload.CONFIG.withMaxAttempts(2));
            created = true;
            return;
        }
        TaskQueue dl = store.taskQueue("dl");
        int op = random.nextInt(10);
        if (op < 3 || leased.isEmpty() && op >= 6) {
            String payload = "d" + n++;
            attempted.add(payload);
            dl.enqueue(Task.of(payload));
            enqueued.add(payload);
            acknowledged++;
        } else if (op < 6) {
            for (LeasedTask t : dl.dequeue(2, TaskWorkload.LEASE, Duration.ZERO, null)) {
                leased.put(t.payloadAsString(), t);
            }
            acknowledged++;
        } else {
            List<String> held = new ArrayList<>(leased.keySet());
            String payload = held.get(random.nextInt(held.size()));
            LeasedTask t = leased.remove(payload);
            try {
                if (op == 6) {
                    ackAttempted.add(payload);
                    dl.ack(List.of(t.token()), Durability.SYNC);
                    acked.add(payload);
                } else {
                    dl.nack(t.token(), Duration.ZERO, "failed");
                    if (t.attempt() >= 2) {
                        deadLettered.add(payload);
                    }
                }
                acknowledged++;
            } catch (StaleLeaseException expired) {
                // the lease ended first: the timer retries or dead-letters it
            }
        }
    }

    @Override
    public void verify(Mikyu store, Tally tally, long cutNanos) throws InterruptedException {
        tally.acknowledged += acknowledged;
        if (!store.list(QueueKind.TASK).contains("dl")) {
            assertThat(enqueued).as("no queue, so no enqueue may have been acknowledged").isEmpty();
            return;
        }
        List<List<String>> drained = TaskDrain.drain(List.of(store.taskQueue("dl"), store.taskQueue("dl/dlq")), 0);
        List<String> main = drained.get(0);
        List<String> dead = drained.get(1);
        Set<String> both = new HashSet<>(main);
        both.retainAll(dead);
        tally.reappeared += both.size();
        assertThat(both).as("a dead letter is not also back in its queue").isEmpty();
        Set<String> movedBack = new HashSet<>(deadLettered);
        movedBack.retainAll(main);
        tally.reappeared += movedBack.size();
        assertThat(movedBack).as("an acknowledged move to the dead-letter queue does not come undone").isEmpty();
        Set<String> notMoved = new HashSet<>(deadLettered);
        notMoved.removeAll(dead);
        tally.lost += notMoved.size();
        assertThat(notMoved).as("an acknowledged move to the dead-letter queue is durable").isEmpty();
        List<String> all = new ArrayList<>(main);
        all.addAll(dead);
        TaskWorkload.check(all, attempted, enqueued, ackAttempted, acked, tally);
    }
}
