package io.mikyu.engine.faults;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.Record;
import io.mikyu.engine.Task;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Log and task queues created (each given one sync record) and deleted. Afterwards a queue whose creation and
 * first record were acknowledged exists with that record unless its deletion was attempted; a queue whose deletion
 * was acknowledged does not come back; no queue appears that was never created.
 */
final class QueueLifecycleWorkload implements Workload {

    private enum State { CREATING, FILLED, DELETING, DELETED }

    private final Map<String, State> queues = new TreeMap<>();
    private int n;
    private long acknowledged;

    @Override
    public String name() {
        return "queue create/delete";
    }

    @Override
    public void step(Mikyu store, Random random) throws InterruptedException {
        List<String> live = new ArrayList<>();
        queues.forEach((name, state) -> {
            if (state == State.FILLED) {
                live.add(name);
            }
        });
        if (live.isEmpty() || random.nextInt(3) > 0) {
            boolean log = random.nextBoolean();
            String name = (log ? "l" : "t") + n++;
            queues.put(name, State.CREATING);
            if (log) {
                store.createLog(name, LogQueueConfig.defaults().withDurability(Durability.SYNC)
                        .withSegmentBytes(8192)).append(Entry.of("first of " + name));
            } else {
                store.createTaskQueue(name, TaskWorkload.CONFIG).enqueue(Task.of("first of " + name));
            }
            queues.put(name, State.FILLED);
        } else {
            String name = live.get(random.nextInt(live.size()));
            queues.put(name, State.DELETING);
            boolean existed = name.startsWith("l") ? store.deleteLog(name) : store.deleteTaskQueue(name);
            assertThat(existed).isTrue();
            queues.put(name, State.DELETED);
        }
        acknowledged++;
    }

    @Override
    public void verify(Mikyu store, Tally tally, long cutNanos) throws InterruptedException {
        tally.acknowledged += acknowledged;
        Set<String> present = new HashSet<>(store.list(QueueKind.LOG));
        for (String t : store.list(QueueKind.TASK)) {
            if (!t.endsWith("/dlq")) {
                present.add(t);
            }
        }
        assertThat(queues.keySet()).as("no queue that was never created").containsAll(present);
        for (Map.Entry<String, State> e : queues.entrySet()) {
            String name = e.getKey();
            boolean there = present.contains(name);
            if (e.getValue() == State.DELETED && there) {
                tally.reappeared++;
            }
            assertThat(e.getValue() == State.DELETED && there).as("deleted queue %s stays deleted", name).isFalse();
            if (e.getValue() == State.FILLED && !there) {
                tally.lost++;
            }
            assertThat(e.getValue() == State.FILLED && !there).as("created queue %s survives", name).isFalse();
            if (there && e.getValue() != State.CREATING) {
                List<String> content = new ArrayList<>();
                if (name.startsWith("l")) {
                    for (Record r : store.log(name).read(0, 10)) {
                        content.add(r.payloadAsString());
                    }
                } else {
                    content.addAll(TaskDrain.drain(store.taskQueue(name), 0));
                }
                assertThat(content).as("queue %s keeps its acknowledged record", name)
                        .containsExactly("first of " + name);
            }
        }
    }
}
