package io.mikyu.engine.faults;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.Record;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keyed sync appends (some tombstones) to a compacted log with small segments, compacted now and then. Afterwards
 * offsets still grow, every record is one that was appended at its offset, and each key's newest record is its
 * last acknowledged value or one attempted after it.
 */
final class CompactionWorkload implements Workload {

    private static final int KEYS = 6;

    /** Per key, the values attempted in order (null: a tombstone). */
    private final Map<String, List<String>> attempted = new HashMap<>();
    /** Per key, how many of its attempted values were acknowledged. */
    private final Map<String, Integer> acked = new HashMap<>();
    private final Map<Long, String> byOffset = new HashMap<>();
    private boolean created;
    private int n;
    private long acknowledged;

    @Override
    public String name() {
        return "compaction";
    }

    @Override
    public void step(Mikyu store, Random random) {
        if (!created) {
            store.getOrCreateLog("kv", LogQueueConfig.defaults().withDurability(Durability.SYNC).withCompaction(true)
                    .withSegmentBytes(4096));
            created = true;
            return;
        }
        LogQueue kv = store.log("kv");
        if (random.nextInt(8) == 0) {
            kv.compact();
        } else {
            String key = "k" + random.nextInt(KEYS);
            boolean tombstone = random.nextInt(6) == 0;
            String value = tombstone ? null : key + "=v" + n++ + "-" + "z".repeat(random.nextInt(300));
            List<String> values = attempted.computeIfAbsent(key, k -> new ArrayList<>());
            values.add(value);
            long offset = kv.append(tombstone ? Entry.tombstone(key) : Entry.keyed(key, value));
            byOffset.put(offset, value == null ? key + " tombstone" : value);
            acked.put(key, values.size());
        }
        acknowledged++;
    }

    @Override
    public void verify(Mikyu store, Tally tally, long cutNanos) {
        tally.acknowledged += acknowledged;
        if (!store.list(QueueKind.LOG).contains("kv")) {
            assertThat(acked).as("no queue, so nothing may have been acknowledged").isEmpty();
            return;
        }
        Map<String, Record> newest = new HashMap<>();
        long last = -1;
        LogQueue kv = store.log("kv");
        for (long from = kv.startOffset(); ; ) {
            List<Record> chunk = kv.read(from, 1000);
            if (chunk.isEmpty()) {
                break;
            }
            for (Record r : chunk) {
                assertThat(r.offset()).as("offsets grow").isGreaterThan(last);
                last = r.offset();
                String key = new String(r.key(), java.nio.charset.StandardCharsets.UTF_8);
                String shown = r.isTombstone() ? key + " tombstone" : r.payloadAsString();
                String expected = byOffset.get(r.offset());
                if (expected != null) {
                    assertThat(shown).as("record at offset %d", r.offset()).isEqualTo(expected);
                }
                newest.put(key, r);
            }
            from = chunk.get(chunk.size() - 1).offset() + 1;
        }
        for (Map.Entry<String, List<String>> e : attempted.entrySet()) {
            String key = e.getKey();
            int ackedCount = acked.getOrDefault(key, 0);
            if (ackedCount == 0) {
                continue;
            }
            List<String> values = e.getValue();
            List<String> allowed = values.subList(ackedCount - 1, values.size());
            Record r = newest.get(key);
            String found = r == null || r.isTombstone() ? null : r.payloadAsString();
            boolean ok = allowed.contains(found);
            if (!ok) {
                tally.lost++;
            }
            assertThat(ok).as("key %s: newest record %s, last acknowledged %s (attempted after it: %s)", key, found,
                    values.get(ackedCount - 1), allowed.subList(1, allowed.size())).isTrue();
        }
    }
}
