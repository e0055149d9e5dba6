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
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Appends to a sync and an async log queue (single records and batches, rolling small segments), consumer-group
 * commits, and flushes. Afterwards each queue holds a prefix of what was attempted, in order: for the sync queue at
 * least everything acknowledged, for the async one at least everything acknowledged before the last completed
 * flush; the group's position is its last acknowledged commit (or the one in flight).
 */
final class LogAppendWorkload implements Workload {

    private static final LogQueueConfig SMALL = LogQueueConfig.defaults().withSegmentBytes(8192);

    private final List<String> syncAttempted = new ArrayList<>();
    private int syncAcked;
    private final List<String> asyncAttempted = new ArrayList<>();
    private final List<Long> asyncAckedAt = new ArrayList<>();
    private int asyncFlushed;
    private long lastCommitAcked = -1;
    private long commitInFlight = -1;
    private boolean created;
    private int n;

    @Override
    public String name() {
        return "log appends";
    }

    @Override
    public void step(Mikyu store, Random random) {
        if (!created) {
            store.createLog("sync", SMALL.withDurability(Durability.SYNC));
            store.createLog("async", SMALL.withDurability(Durability.ASYNC));
            created = true;
            return;
        }
        int op = random.nextInt(10);
        if (op < 4) {
            List<String> batch = payloads("s", 1 + random.nextInt(3), random);
            syncAttempted.addAll(batch);
            store.log("sync").appendBatch(batch.stream().map(Entry::of).toList());
            syncAcked = syncAttempted.size();
        } else if (op < 8) {
            List<String> batch = payloads("a", 1 + random.nextInt(3), random);
            asyncAttempted.addAll(batch);
            store.log("async").appendBatch(batch.stream().map(Entry::of).toList());
            long now = System.nanoTime();
            while (asyncAckedAt.size() < asyncAttempted.size()) {
                asyncAckedAt.add(now);
            }
        } else if (op == 8) {
            long offset = syncAcked == 0 ? 0 : random.nextInt(syncAcked + 1);
            commitInFlight = offset;
            store.log("sync").group("g").commit(offset);
            lastCommitAcked = offset;
            commitInFlight = -1;
        } else {
            int before = asyncAckedAt.size();
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
        tally.acknowledged += syncAcked + asyncAckedAt.size() + (lastCommitAcked >= 0 ? 1 : 0);
        if (!store.list(QueueKind.LOG).contains("async")) {
            assertThat(syncAcked + asyncAckedAt.size()).as("no queue, so nothing may have been acknowledged")
                    .isZero();
            return;
        }
        List<String> sync = payloads(store.log("sync"));
        assertThat(syncAttempted).as("the sync queue holds a prefix of the attempted appends, in order")
                .startsWith(sync.toArray(new String[0]));
        if (sync.size() < syncAcked) {
            tally.lost += syncAcked - sync.size();
        }
        assertThat(sync.size()).as("every acknowledged sync append survives").isGreaterThanOrEqualTo(syncAcked);

        List<String> async = payloads(store.log("async"));
        assertThat(asyncAttempted).as("the async queue holds a prefix of the attempted appends, in order")
                .startsWith(async.toArray(new String[0]));
        if (async.size() < asyncFlushed) {
            tally.lost += asyncFlushed - async.size();
        }
        assertThat(async.size()).as("every async append acknowledged before a completed flush() survives")
                .isGreaterThanOrEqualTo(asyncFlushed);
        if (async.size() < asyncAckedAt.size()) {
            tally.asyncLost += asyncAckedAt.size() - async.size();
            long window = (cutNanos - asyncAckedAt.get(async.size())) / 1_000_000;
            tally.asyncLossWindowMillis = Math.max(tally.asyncLossWindowMillis, window);
        }

        ConsumerGroup g = store.log("sync").group("g");
        if (lastCommitAcked >= 0 || commitInFlight >= 0) {
            assertThat(g.position()).as("the group's position is its last acknowledged commit, or the one in flight")
                    .isIn(lastCommitAcked < 0 ? 0L : lastCommitAcked, commitInFlight);
        }
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
