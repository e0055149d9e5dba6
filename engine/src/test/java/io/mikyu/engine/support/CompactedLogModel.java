package io.mikyu.engine.support;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Record;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a compacted log must hold, computed the simple way: every record appended, and compaction as an unbounded
 * map of every key to its newest offset would do it (in sealed segments, keep a record without a key, or the newest
 * of its key unless that is a tombstone older than the tombstone retention). The engine's compaction, whatever its
 * key map's size, must give exactly this.
 */
public final class CompactedLogModel {

    /** One appended record; {@code payload} null for a tombstone, {@code key} null for a record without one. */
    public record Written(long offset, String key, String payload, long timestamp) {
        boolean tombstone() {
            return key != null && payload == null;
        }
    }

    private final List<Written> present = new ArrayList<>();

    /** Records an append that returned {@code offset}. */
    public void appended(long offset, String key, String payload, long timestamp) {
        if (!present.isEmpty() && present.get(present.size() - 1).offset() >= offset) {
            throw new IllegalArgumentException("offsets must grow: " + offset);
        }
        present.add(new Written(offset, key, payload, timestamp));
    }

    /**
     * Appends {@code records} updates of keys {@code k0}..{@code k<keys-1>} chosen by {@code random}: values, about
     * one in twelve a tombstone, one in twenty a record without a key; {@code storeNow} is the store's wall time.
     */
    public void appendUpdates(LogQueue q, Random random, int keys, int records, long storeNow) {
        for (int i = 0; i < records; i++) {
            String key = "k" + random.nextInt(keys);
            int kind = random.nextInt(60);
            Entry e;
            if (kind < 3) {
                key = null;
                e = Entry.of("free-" + q.endOffset());
            } else if (kind < 8) {
                e = Entry.tombstone(key);
            } else {
                e = Entry.keyed(key, key + "=" + q.endOffset() + "-" + "#".repeat(random.nextInt(40)));
            }
            long offset = q.append(e);
            appended(offset, key, e.payload() == null ? null : new String(e.payload(), StandardCharsets.UTF_8),
                    storeNow);
        }
    }

    /** Appends {@code n} records without a key (they take no room in compaction's key map). */
    public void appendUnkeyed(LogQueue q, int n, long storeNow) {
        for (int i = 0; i < n; i++) {
            String payload = "free-" + q.endOffset() + "-" + "#".repeat(40);
            appended(q.append(Entry.of(payload)), null, payload, storeNow);
        }
    }

    /** Compaction of the records below {@code sealedEnd} with tombstones older than {@code tombstoneCutoff} gone. */
    public void compact(long sealedEnd, long tombstoneCutoff) {
        Map<String, Long> newest = newestOffsets();
        present.removeIf(w -> w.offset() < sealedEnd && w.key() != null
                && (newest.get(w.key()) != w.offset() || w.tombstone() && w.timestamp() < tombstoneCutoff));
    }

    /** The records the log holds, oldest first. */
    public List<Written> present() {
        return List.copyOf(present);
    }

    /** Each key's newest record. */
    public Map<String, Written> newestRecords() {
        Map<String, Written> newest = new HashMap<>();
        for (Written w : present) {
            if (w.key() != null) {
                newest.put(w.key(), w);
            }
        }
        return newest;
    }

    private Map<String, Long> newestOffsets() {
        Map<String, Long> newest = new HashMap<>();
        for (Written w : present) {
            if (w.key() != null) {
                newest.put(w.key(), w.offset());
            }
        }
        return newest;
    }

    /** Every record the queue holds, oldest first, read a chunk at a time. */
    public static List<Record> readAll(LogQueue q) {
        List<Record> all = new ArrayList<>();
        long from = q.startOffset();
        while (from < q.endOffset()) {
            List<Record> chunk = q.read(from, 1000);
            if (chunk.isEmpty()) {
                break;
            }
            all.addAll(chunk);
            from = chunk.get(chunk.size() - 1).offset() + 1;
        }
        return all;
    }

    /** Asserts that {@code q} holds exactly the records of this model, offsets, keys and payloads. */
    public void assertHeldBy(LogQueue q) {
        List<Record> actual = readAll(q);
        assertThat(actual.stream().map(Record::offset).toList()).as("offsets of the records kept")
                .containsExactlyElementsOf(present.stream().map(Written::offset).toList());
        for (int i = 0; i < actual.size(); i++) {
            assertSame(present.get(i), actual.get(i));
        }
    }

    /** Asserts that {@code r} is the record appended at its offset. */
    public static void assertSame(Written expected, Record r) {
        assertThat(r.offset()).isEqualTo(expected.offset());
        assertThat(r.key() == null ? null : r.keyAsString()).as("key at %d", r.offset()).isEqualTo(expected.key());
        assertThat(r.payload() == null ? null : r.payloadAsString()).as("payload at %d", r.offset())
                .isEqualTo(expected.payload());
    }

    /** Base offset of the queue's active (last) segment: records below it are in sealed segments. */
    public static long activeSegmentBase(Path dataDir, String queue) {
        List<Path> segs = StoreFiles.segments(StoreFiles.logDir(dataDir, queue));
        return Long.parseLong(segs.get(segs.size() - 1).getFileName().toString().substring(0, 20));
    }
}
