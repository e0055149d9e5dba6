package io.mikyu.engine.faults;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.Record;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Appends to a sync and an async log queue (single records and batches, rolling small segments), consumer-group
 * commits, and flushes. Afterwards each queue holds attempted appends only, in the order attempted: the sync queue
 * every acknowledged one, the async one a prefix of the acknowledged ones reaching at least to the last completed
 * flush; the group's position is its last acknowledged commit (or one that failed or was in flight).
 */
final class LogAppendWorkload implements Workload {

    private static final LogQueueConfig SMALL = LogQueueConfig.defaults().withSegmentBytes(8192);

    private final List<String> syncAttempted = new ArrayList<>();
    private final List<String> syncAcked = new ArrayList<>();
    private final List<String> asyncAttempted = new ArrayList<>();
    private final List<String> asyncAcked = new ArrayList<>();
    private final List<Long> asyncAckedAt = new ArrayList<>();
    private int asyncFlushed;
    private long lastCommitAcked = -1;
    private final Set<Long> commitsFailed = new HashSet<>();
    private boolean created;
    private int n;

    @Override
    public String name() {
        return "log appends";
    }

    @Override
    public void step(Mikyu store, Random random) {
        if (!created) {
            store.getOrCreateLog("sync", SMALL.withDurability(Durability.SYNC));
            store.getOrCreateLog("async", SMALL.withDurability(Durability.ASYNC));
            created = true;
            return;
        }
        int op = random.nextInt(10);
        if (op < 4) {
            List<String> batch = payloads("s", 1 + random.nextInt(3), random);
            syncAttempted.addAll(batch);
            store.log("sync").appendBatch(batch.stream().map(Entry::of).toList());
            syncAcked.addAll(batch);
        } else if (op < 8) {
            List<String> batch = payloads("a", 1 + random.nextInt(3), random);
            asyncAttempted.addAll(batch);
            store.log("async").appendBatch(batch.stream().map(Entry::of).toList());
            long now = System.nanoTime();
            asyncAcked.addAll(batch);
            batch.forEach(b -> asyncAckedAt.add(now));
        } else if (op == 8) {
            long offset = random.nextInt(syncAcked.size() + 1);
            commitsFailed.add(offset);
            store.log("sync").group("g").commit(offset);
            commitsFailed.clear(); // a later acknowledged commit supersedes them
            lastCommitAcked = offset;
        } else {
            int before = asyncAcked.size();
            store.flush();
            asyncFlushed = before;
        }
    }

    private List<String> payloads(String prefix, int count, Random random) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // payloads of varied size, so batches straddle segment ends and index intervals
            out.add(prefix + (n++) + "-" + "x".repeat(random.nextInt(600)));
        }
        return out;
    }

    @Override
    public void verify(Mikyu store, Tally tally, long cutNanos) {
        tally.acknowledged += syncAcked.size() + asyncAcked.size() + (lastCommitAcked >= 0 ? 1 : 0);
        if (!store.list(QueueKind.LOG).contains("async")) {
            assertThat(syncAcked.size() + asyncAcked.size()).as("no queue, so nothing may have been acknowledged")
                    .isZero();
            return;
        }
        List<String> sync = payloads(store.log("sync"));
        assertInOrder(sync, syncAttempted, "sync");
        List<String> missing = new ArrayList<>(syncAcked);
        missing.removeAll(sync);
        tally.lost += missing.size();
        assertThat(missing).as("every acknowledged sync append survives").isEmpty();

        List<String> async = payloads(store.log("async"));
        assertInOrder(async, asyncAttempted, "async");
        int kept = 0;
        while (kept < asyncAcked.size() && async.contains(asyncAcked.get(kept))) {
            kept++;
        }
        List<String> afterGap = new ArrayList<>(asyncAcked.subList(kept, asyncAcked.size()));
        afterGap.retainAll(async);
        assertThat(afterGap).as("acknowledged async appends lost only from the end, never one before a survivor")
                .isEmpty();
        if (kept < asyncFlushed) {
            tally.lost += asyncFlushed - kept;
        }
        assertThat(kept).as("every async append acknowledged before a completed flush() survives")
                .isGreaterThanOrEqualTo(asyncFlushed);
        if (kept < asyncAcked.size()) {
            tally.asyncLost += asyncAcked.size() - kept;
            long window = (cutNanos - asyncAckedAt.get(kept)) / 1_000_000;
            tally.asyncLossWindowMillis = Math.max(tally.asyncLossWindowMillis, window);
        }

        ConsumerGroup g = store.log("sync").group("g");
        if (lastCommitAcked >= 0 || !commitsFailed.isEmpty()) {
            Set<Long> allowed = new HashSet<>(commitsFailed);
            allowed.add(Math.max(0, lastCommitAcked));
            assertThat(g.position()).as("the group's position is its last acknowledged commit, or a later one that"
                    + " failed or was in flight").isIn(allowed);
        }
    }

    /** {@code found} holds attempted records only, each once, in the order they were attempted. */
    private static void assertInOrder(List<String> found, List<String> attempted, String queue) {
        assertThat(found).as(queue + ": each record once").doesNotHaveDuplicates();
        assertThat(attempted).as(queue + ": only attempted records").containsAll(found);
        List<Integer> at = found.stream().map(attempted::indexOf).toList();
        assertThat(at).as(queue + ": in the order attempted").isSorted();
    }

    private static List<String> payloads(LogQueue q) {
        List<String> out = new ArrayList<>();
        long from = q.startOffset();
        while (true) {
            List<Record> chunk = q.read(from, 1000);
            if (chunk.isEmpty()) {
                return out;
            }
            chunk.forEach(r -> out.add(r.payloadAsString()));
            from = chunk.get(chunk.size() - 1).offset() + 1;
        }
    }
}
