package io.mikyu.engine.internal.task;

import io.mikyu.engine.Headers;
import io.mikyu.engine.TaskView;

import java.util.Comparator;

/** The in-memory state of one unfinished task. Guarded by its queue's lock. */
final class TaskEntry implements TaskView {

    enum State { READY, SCHEDULED, LEASED, LEAVING }

    /** Delivery order: higher priority first, then lower id (FIFO). */
    static final Comparator<TaskEntry> DELIVERY_ORDER =
            Comparator.comparingInt((TaskEntry e) -> -e.priority).thenComparingLong(e -> e.id);
    static final Comparator<TaskEntry> BY_VISIBLE_AT =
            Comparator.comparingLong((TaskEntry e) -> e.visibleAt).thenComparingLong(e -> e.id);

    /** Ids from here up are transient tasks: kept in memory only, never in the task log. */
    static final long TRANSIENT_BASE = 1L << 62;

    final long id;
    final int priority;
    final long enqueuedAt;
    /** Wall time, as the producer gave it: what {@link #expiresAt()} shows. */
    final long expiresAt;
    /** {@link #expiresAt} in steady time, what expiry is checked against; 0: never. */
    final long expiresAtSteady;
    /** The headers, encoded ({@link CompactHeaders}): decoded when asked for, a held task costs far less heap. */
    private final byte[] headers;

    State state = State.SCHEDULED;

    boolean isTransient() {
        return id >= TRANSIENT_BASE;
    }

    int attempts;
    /** Steady time from which the task may be handed out. */
    long visibleAt;
    long lease;
    long leaseUntil;
    String lastReason;
    /**
     * The last counted lease ran out without a word from its holder (no ack, no nack): its consumer may have died
     * of it. A nack clears it; giving the task back undelivered keeps it (that lease was not counted).
     */
    boolean leaseRanOut;
    /** A prepared transaction settles this task: only its decision may finish or return it. */
    boolean heldByTransaction;
    /** Links of the intrusive list that holds this entry: {@link ReadyTasks} or a {@link LeasedTasks} bucket. */
    TaskEntry prev;
    TaskEntry next;
    /** In {@link ReadyTasks}: held in its out-of-order tree rather than its list. */
    boolean outOfOrder;
    /** In {@link LeasedTasks}: the bucket holding this entry, or {@code null}. */
    LeasedTasks.Bucket bucket;
    /** The payload, while the queue's in-memory budget holds it; {@code null}: read it from the log. */
    byte[] payload;

    /**
     * {@code deliverAt} and {@code expiresAt} are wall times (0: none); {@code wallToSteady} is the steady clock's
     * reading minus the wall clock's now, which turns them into steady time.
     */
    TaskEntry(long id, int priority, long enqueuedAt, long deliverAt, long expiresAt, Headers headers,
              long wallToSteady) {
        this.id = id;
        this.priority = priority;
        this.enqueuedAt = enqueuedAt;
        this.visibleAt = toSteady(deliverAt, wallToSteady);
        this.expiresAt = expiresAt;
        this.expiresAtSteady = toSteady(expiresAt, wallToSteady);
        this.headers = CompactHeaders.encode(headers);
    }

    /** 0 stays 0 (none); saturated, so a deliver-at of "never" does not wrap round to "at once". */
    private static long toSteady(long wallMillis, long wallToSteady) {
        if (wallMillis == 0) {
            return 0;
        }
        long r = wallMillis + wallToSteady;
        if (((wallMillis ^ r) & (wallToSteady ^ r)) < 0) {
            return wallToSteady > 0 ? Long.MAX_VALUE : 1;
        }
        return Math.max(1, r);
    }

    boolean isExpired(long now) {
        return expiresAtSteady != 0 && expiresAtSteady <= now;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public int priority() {
        return priority;
    }

    @Override
    public Headers headers() {
        return CompactHeaders.decode(headers);
    }

    /** One header's last value as UTF-8, or {@code null}, without decoding the others. */
    String header(String name) {
        return CompactHeaders.getString(headers, name);
    }

    @Override
    public int attempts() {
        return attempts;
    }

    @Override
    public long enqueuedAt() {
        return enqueuedAt;
    }

    @Override
    public long expiresAt() {
        return expiresAt;
    }

    @Override
    public String toString() {
        return "task " + id + " (" + state + ", attempts " + attempts + ")";
    }
}
