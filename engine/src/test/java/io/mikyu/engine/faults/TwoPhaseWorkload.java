package io.mikyu.engine.faults;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.Record;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.Transaction;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transactions that take a task from {@code in} and put its result in the task queue {@code out} and the log
 * {@code events}: prepared, then committed or rolled back, or committed in one phase. Afterwards each transaction
 * is all or nothing, applied once; a prepared one whose decision was not attempted is still in doubt (and still
 * commits); an acknowledged decision holds; a task is back in {@code in} exactly when its transaction did not
 * take effect and is not in doubt.
 */
final class TwoPhaseWorkload implements Workload {

    private final Set<String> inEnqueued = new HashSet<>();
    private final Set<String> inAttempted = new HashSet<>();
    private final Set<String> txAttempted = new HashSet<>();
    private final List<String> prepared = new ArrayList<>();
    private final Set<String> decisionAttempted = new HashSet<>();
    private final Set<String> committed = new HashSet<>();
    private final Set<String> rolledBack = new HashSet<>();
    private boolean created;
    private int n;
    private long acknowledged;

    @Override
    public String name() {
        return "two-phase commit";
    }

    private int transactions;

    /** A new xid for a transaction taking {@code inTask} (a task rolled back is taken again, by another). */
    private String xid(String inTask) {
        return "x" + transactions++ + "-" + inTask;
    }

    private static String inTask(String xid) {
        return xid.substring(xid.indexOf('-') + 1);
    }

    @Override
    public void step(Mikyu store, Random random) throws InterruptedException {
        if (!created) {
            store.getOrCreateTaskQueue("in", TaskWorkload.CONFIG);
            store.getOrCreateTaskQueue("out", TaskWorkload.CONFIG);
            store.getOrCreateLog("events", LogQueueConfig.defaults().withDurability(Durability.SYNC).withSegmentBytes(8192));
            created = true;
            return;
        }
        int op = random.nextInt(10);
        if (op < 2) {
            List<String> batch = List.of("i" + n++, "i" + n++);
            inAttempted.addAll(batch);
            store.taskQueue("in").enqueueBatch(batch.stream().map(Task::of).toList());
            inEnqueued.addAll(batch);
        } else if (op < 7) {
            List<LeasedTask> taken = store.taskQueue("in").dequeue(1, TaskWorkload.LEASE, Duration.ZERO, null);
            if (taken.isEmpty()) {
                return;
            }
            LeasedTask t = taken.get(0);
            String x = xid(t.payloadAsString());
            Transaction tx = store.beginTransaction()
                    .ack("in", t.token())
                    .enqueue("out", Task.of(x))
                    .append("events", Entry.of(x));
            txAttempted.add(x);
            try {
                if (op < 5) {
                    tx.prepare(x.getBytes(StandardCharsets.UTF_8));
                    prepared.add(x);
                } else {
                    tx.commit();
                    committed.add(x);
                }
            } catch (StaleLeaseException expired) {
                txAttempted.remove(x); // refused before anything was written
                return;
            }
        } else {
            List<String> open = new ArrayList<>(prepared);
            open.removeAll(decisionAttempted);
            if (open.isEmpty()) {
                return;
            }
            String x = open.get(random.nextInt(open.size()));
            decisionAttempted.add(x);
            if (op < 9) {
                store.commitPrepared(x.getBytes(StandardCharsets.UTF_8));
                committed.add(x);
            } else {
                store.rollbackPrepared(x.getBytes(StandardCharsets.UTF_8));
                rolledBack.add(x);
            }
        }
        acknowledged++;
    }

    @Override
    public void verify(Mikyu store, Tally tally, long cutNanos) throws InterruptedException {
        tally.acknowledged += acknowledged;
        if (!store.list(QueueKind.LOG).contains("events")) {
            assertThat(inEnqueued).as("no queues, so nothing may have been acknowledged").isEmpty();
            return;
        }
        Set<String> inDoubt = new HashSet<>();
        for (PreparedTransaction p : store.inDoubtTransactions()) {
            inDoubt.add(new String(p.xid(), StandardCharsets.UTF_8));
        }
        List<String> out = TaskDrain.drain(store.taskQueue("out"), 0);
        List<String> events = new ArrayList<>();
        for (Record r : store.log("events").read(0, 100_000)) {
            events.add(r.payloadAsString());
        }
        List<String> in = TaskDrain.drain(store.taskQueue("in"), inDoubt.size());
        assertThat(out).as("each transaction applied once").doesNotHaveDuplicates();
        assertThat(events).as("each transaction applied once").doesNotHaveDuplicates();
        assertThat(txAttempted).as("nothing no transaction wrote").containsAll(out).containsAll(events)
                .containsAll(inDoubt);
        assertThat(in).doesNotHaveDuplicates();
        assertThat(inAttempted).containsAll(in);

        for (String x : txAttempted) {
            boolean applied = out.contains(x);
            boolean doubt = inDoubt.contains(x);
            assertThat(events.contains(x)).as("transaction %s all or nothing", x).isEqualTo(applied);
            assertThat(applied && doubt).as("transaction %s both applied and in doubt", x).isFalse();
            if (prepared.contains(x) && !decisionAttempted.contains(x) && !doubt) {
                tally.lost++;
            }
            assertThat(doubt || !prepared.contains(x) || decisionAttempted.contains(x))
                    .as("prepared branch %s, never decided, stays prepared", x).isTrue();
            if (committed.contains(x) && !applied) {
                tally.lost++;
            }
            assertThat(applied || !committed.contains(x)).as("acknowledged commit of %s holds", x).isTrue();
            if (rolledBack.contains(x) && (applied || doubt)) {
                tally.reappeared++;
            }
            assertThat(rolledBack.contains(x) && (applied || doubt))
                    .as("acknowledged rollback of %s holds", x).isFalse();
        }
        Map<String, List<String>> byTask = new HashMap<>();
        txAttempted.forEach(x -> byTask.computeIfAbsent(inTask(x), t -> new ArrayList<>()).add(x));
        byTask.forEach((task, xids) -> {
            long taking = xids.stream().filter(x -> out.contains(x) || inDoubt.contains(x)).count();
            assertThat(taking).as("task %s taken by at most one transaction that applied or is in doubt: %s",
                    task, xids).isLessThanOrEqualTo(1);
            boolean back = in.contains(task);
            if (taking > 0 && back) {
                tally.reappeared++;
            }
            assertThat(back).as("task %s is back exactly when no transaction of %s applied or is in doubt", task,
                    xids).isEqualTo(taking == 0);
        });
        Set<String> untouched = new HashSet<>(inEnqueued);
        txAttempted.forEach(x -> untouched.remove(inTask(x)));
        untouched.removeAll(in);
        tally.lost += untouched.size();
        assertThat(untouched).as("acknowledged tasks no transaction took survive").isEmpty();

        // The branches recovery kept in doubt can still be decided.
        for (String x : inDoubt) {
            store.commitPrepared(x.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(TaskDrain.drain(store.taskQueue("out"), out.size())).as("recovered branches commit")
                .containsExactlyInAnyOrderElementsOf(inDoubt);
    }
}
