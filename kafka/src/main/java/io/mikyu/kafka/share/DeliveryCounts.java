package io.mikyu.kafka.share;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The delivery count this JVM last handed out for each record of a share group that it has not seen finished (acked,
 * dead-lettered, or written again to a delay tier), so that a count is never shown lower than before: Kafka 4.4 was
 * seen to deliver again with count 1 a record whose ack failed while its share partition's leader moved (the
 * acquisition it counted had not reached the share coordinator's state). A record delivered again is shown with
 * at least one more than its last count here.
 *
 * <p>Held in memory and shared by the store handles of one JVM (the four consumers of a failover are often four
 * handles of one process); a record delivered again to another process after a failover shows Kafka's count
 * (docs/kafka.md). Bounded: the oldest of {@link #CAPACITY} entries is forgotten first, so a record released long
 * ago and finished elsewhere costs nothing forever.
 */
final class DeliveryCounts {

    static final int CAPACITY = 100_000;

    /** The JVM's counts. */
    static final DeliveryCounts SEEN = new DeliveryCounts(CAPACITY);

    private record Key(String scope, long offset) {
    }

    private final Map<Key, Integer> counts;
    /** Deliveries Kafka counted that no one was shown (strays released undelivered, ShareLeases), by record. */
    private final Map<Key, Integer> notShown;
    /** Records seen finished in this JVM, the most recent {@code capacity}: see {@link #isDone}. */
    private final Map<Key, Boolean> done;

    DeliveryCounts(int capacity) {
        this.counts = bounded(capacity);
        this.notShown = bounded(capacity);
        this.done = bounded(capacity);
    }

    private static <V> Map<Key, V> bounded(int capacity) {
        return new LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, V> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * A delivery Kafka counted for {@code offset} was never shown: the record was acquired by a fetch no one waited
     * for (or ahead of what a fetch asked) and released undelivered. The counts of its later deliveries in this JVM
     * leave it out, until it is finished: a record released so, delivered and then nacked shows 1 and then 2.
     */
    synchronized void notShown(String scope, long offset) {
        notShown.merge(new Key(scope, offset), 1, Integer::sum);
    }

    /**
     * The count to show for a delivery of {@code offset} in {@code scope} (a cluster, group and topic) that Kafka
     * counts {@code counted}: that, or one more than the count last shown if it was not higher. Remembered until
     * {@link #finished}.
     */
    synchronized int delivered(String scope, long offset, int counted) {
        Key key = new Key(scope, offset);
        Integer skipped = notShown.get(key);
        counted = Math.max(1, counted - (skipped == null ? 0 : skipped));
        Integer before = counts.remove(key);
        int shown = before == null ? counted : Math.max(counted, before + 1);
        counts.put(key, shown);
        return shown;
    }

    /** The record is done with: acked, dead-lettered or written again; its next delivery, if any, is Kafka's to count. */
    synchronized void finished(String scope, long offset) {
        Key key = new Key(scope, offset);
        counts.remove(key);
        notShown.remove(key);
        done.put(key, Boolean.TRUE);
    }

    /**
     * Whether this JVM saw the record finished (Kafka took its accept) among the last {@link #CAPACITY} finished: a
     * copy of it delivered after that is stale and must not be handed out. Kafka 4.4 was seen to do so after a
     * share partition's leader moved: a copy acquired from the old leader, held in a member's buffer or a handle's
     * strays, outlived the new leader's delivery of the record to another member and that member's ack. A copy
     * that waited is renewed before it is handed out ({@code ShareLeases#RECHECK_AFTER}), which also covers an ack
     * made in another process; this covers, within one JVM, the copies handed out sooner.
     */
    synchronized boolean isDone(String scope, long offset) {
        return done.containsKey(new Key(scope, offset));
    }
}
