package io.mikyu.engine.internal.task;

import io.mikyu.engine.TaskQueue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * A task queue's state as text, to compare two opens of the same log: every task that is not ready with its state,
 * attempts, lease and times, then the ready ones (held or in the log only, which two opens may split differently)
 * in delivery order, then the last lease number. The clock is applied first, as any use of the queue does.
 */
final class LedgerFingerprint {

    private LedgerFingerprint() {
    }

    static String of(TaskQueue queue) {
        TaskQueueHandle h = (TaskQueueHandle) queue;
        h.counts(); // applies the clock
        List<String> lines = new ArrayList<>();
        List<long[]> ready = new ArrayList<>(); // priority, id, attempts
        h.ledger.withLock(() -> {
            TaskQueueState s = h.ledger.state;
            s.forEachTask(e -> {
                if (e.state == TaskEntry.State.READY) {
                    ready.add(new long[] {e.priority, e.id, e.attempts});
                } else {
                    lines.add(e.id + " " + e.state + " attempts=" + e.attempts + " lease=" + e.lease + " until="
                            + e.leaseUntil + " visibleAt=" + e.visibleAt + " reason=" + e.lastReason + " ranOut="
                            + e.leaseRanOut);
                }
            });
            ColdBacklog cold = s.coldBacklog();
            for (int p = 0; cold != null && p < ColdBacklog.LEVELS; p++) {
                int priority = p;
                cold.peek(p, r -> {
                    ready.add(new long[] {priority, r.offset(), 0});
                    return true;
                });
            }
            lines.add("lastLease=" + s.lastLease());
        });
        Collections.sort(lines);
        ready.sort(Comparator.comparingLong((long[] r) -> -r[0]).thenComparingLong(r -> r[1]));
        StringBuilder b = new StringBuilder(String.join("\n", lines)).append("\nready:");
        for (long[] r : ready) {
            b.append(' ').append(r[1]).append('/').append(r[0]).append(r[2] == 0 ? "" : "x" + r[2]);
        }
        return b.toString();
    }
}
