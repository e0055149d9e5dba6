package io.mikyu.jms.delivery;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordScheduling;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskView;
import io.mikyu.engine.Transaction;

import io.mikyu.jms.metrics.JmsMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeSet;

/**
 * A non-durable topic subscription: a cursor in memory over the topic's log queue, starting at its end when the
 * subscription is made. Nothing is written for it (a non-durable subscription dies with its consumer), so a
 * delivery costs a read. Unacknowledged offsets are remembered for redelivery; delayed messages wait in memory.
 *
 * <p>Tokens name the record's offset; their lease part is the attempt.
 */
public final class LogCursorSource implements MessageSource {

    private static final Logger LOG = LoggerFactory.getLogger(LogCursorSource.class);

    private final LogQueue log;
    private final TaskFilter filter;
    private final int maxAttempts;
    private long next;
    /** Offsets delivered and not acked, with their delivery count. */
    private final Map<Long, Integer> attempts = new HashMap<>();
    /** Offsets to deliver again (nacked or returned), lowest first. */
    private final TreeSet<Long> again = new TreeSet<>();
    /** Records whose delivery time has not come: (deliverAt, offset). */
    private final PriorityQueue<long[]> delayed = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));

    public LogCursorSource(LogQueue log, TaskFilter filter, int maxAttempts) {
        this.log = log;
        this.filter = filter;
        this.maxAttempts = maxAttempts;
        this.next = log.endOffset();
    }

    @Override
    public List<Inbound> fetch(int max, Duration lease, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            List<Inbound> out = new ArrayList<>();
            long now = System.currentTimeMillis();
            synchronized (this) {
                while (!again.isEmpty() && out.size() < max) {
                    long offset = again.pollFirst();
                    Record r = log.read(offset);
                    if (r != null && !expired(r, now)) {
                        out.add(inbound(r, attempts.merge(offset, 1, Integer::sum)));
                    } else {
                        attempts.remove(offset);
                    }
                }
                while (!delayed.isEmpty() && delayed.peek()[0] <= now && out.size() < max) {
                    long offset = delayed.poll()[1];
                    Record r = log.read(offset);
                    if (r != null && !expired(r, now)) {
                        out.add(inbound(r, attempts.merge(offset, 1, Integer::sum)));
                    }
                }
            }
            if (!out.isEmpty()) {
                return out;
            }
            long remaining = deadline - System.nanoTime();
            long untilDelayed = nextDelayedMillis(now);
            Duration slice = Duration.ofNanos(Math.max(0, Math.min(remaining, untilDelayed * 1_000_000L)));
            List<Record> records = log.poll(next, max, slice);
            now = System.currentTimeMillis();
            synchronized (this) {
                for (Record r : records) {
                    next = r.offset() + 1;
                    if (expired(r, now) || (filter != null && !filter.matches(view(r)))) {
                        continue;
                    }
                    long deliverAt = RecordScheduling.deliverAt(r);
                    if (deliverAt > now) {
                        delayed.add(new long[] {deliverAt, r.offset()});
                    } else {
                        out.add(inbound(r, attempts.merge(r.offset(), 1, Integer::sum)));
                    }
                }
            }
            if (!out.isEmpty() || (System.nanoTime() >= deadline && nextDelayedMillis(now) > 0)) {
                return out;
            }
        }
    }

    private synchronized long nextDelayedMillis(long now) {
        return delayed.isEmpty() ? Long.MAX_VALUE / 2_000_000L : Math.max(0, delayed.peek()[0] - now);
    }

    private static Inbound inbound(Record r, int attempt) {
        return new Inbound(r.headers(), r.payload(), attempt, new LeaseToken(r.offset(), attempt), Long.MAX_VALUE);
    }

    private static boolean expired(Record r, long now) {
        long expiresAt = RecordScheduling.expiresAt(r);
        return expiresAt > 0 && expiresAt <= now;
    }

    private static TaskView view(Record r) {
        return RecordScheduling.view(r, RecordScheduling.priority(r), RecordScheduling.expiresAt(r));
    }

    @Override
    public synchronized void ack(List<LeaseToken> tokens) {
        for (LeaseToken t : tokens) {
            attempts.remove(t.taskId());
        }
    }

    @Override
    public synchronized void nack(LeaseToken token, Duration delay, String reason) {
        long offset = token.taskId();
        Integer n = attempts.get(offset);
        if (n == null) {
            return;
        }
        if (n >= maxAttempts) {
            // A non-durable subscription keeps no dead letters: the message is given up, loudly.
            attempts.remove(offset);
            JmsMetrics.GLOBAL.discarded();
            LOG.warn("non-durable subscription on topic '{}' discards the message at offset {} after {} deliveries"
                    + " (maxAttempts {}; a non-durable subscription has no dead-letter queue){}", log.name(), offset,
                    n, maxAttempts, reason == null ? "" : "; last failure: " + reason);
        } else if (delay == null || delay.isZero()) {
            again.add(offset);
        } else {
            delayed.add(new long[] {System.currentTimeMillis() + delay.toMillis(), offset});
        }
    }

    @Override
    public synchronized void returnUndelivered(List<LeaseToken> tokens) {
        for (LeaseToken t : tokens) {
            Integer n = attempts.get(t.taskId());
            if (n != null) {
                if (n <= 1) {
                    attempts.remove(t.taskId());
                } else {
                    attempts.put(t.taskId(), n - 1);
                }
                again.add(t.taskId());
            }
        }
    }

    @Override
    public long extend(LeaseToken token, Duration lease) {
        return Long.MAX_VALUE; // nothing else can take the record: no lease to renew
    }

    @Override
    public boolean transactional() {
        return false; // an in-memory cursor: its acks are applied in memory after the commit
    }

    @Override
    public boolean ackIn(Transaction tx, LeaseToken token) {
        return false;
    }

    @Override
    public void close() {
    }
}
