package io.mikyu.jms.classic;

import io.mikyu.engine.TimeSource;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The XA branches of one resource manager — one store, embedded or behind a broker, known by its store id — that
 * this JVM works on: those not prepared yet ({@link Branch}), and the parts of prepared ones that only this JVM
 * can finish (acks of non-durable subscriptions). Every XA resource on the same store shares it, so a session of
 * another connection can {@code TMJOIN} a branch; a timer rolls back branches past their deadline and renews the
 * leases of the messages they consumed.
 */
final class Branches {

    private static final Map<String, Branches> BY_STORE = new ConcurrentHashMap<>();
    private static final long TICK_MILLIS = 100;
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mikyu-jms-xa-timeouts");
        t.setDaemon(true);
        return t;
    });

    static {
        TIMER.scheduleWithFixedDelay(Branches::tickAll, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** What branch deadlines are timed by; tests step their own. */
    private static volatile TimeSource clock = TimeSource.system();

    private final String storeId;
    private final Map<ByteBuffer, Branch> open = new ConcurrentHashMap<>();
    private final Map<ByteBuffer, TransactionWork.Taken> preparedHere = new ConcurrentHashMap<>();

    private Branches(String storeId) {
        this.storeId = storeId;
    }

    static Branches of(String storeId) {
        return BY_STORE.computeIfAbsent(storeId, Branches::new);
    }

    String storeId() {
        return storeId;
    }

    /** A new branch, or null if one with this Xid is open already. */
    Branch begin(byte[] xid, long deadlineMillis) {
        Branch b = new Branch(xid, deadlineMillis);
        return open.putIfAbsent(key(xid), b) == null ? b : null;
    }

    Branch get(byte[] xid) {
        return open.get(key(xid));
    }

    void forget(Branch b) {
        open.remove(key(b.xid), b);
    }

    void preparedHere(byte[] xid, TransactionWork.Taken work) {
        preparedHere.put(key(xid), work);
    }

    /** What this JVM kept of a branch it prepared, or null (prepared elsewhere, or before a restart). */
    TransactionWork.Taken takePrepared(byte[] xid) {
        return preparedHere.remove(key(xid));
    }

    private static ByteBuffer key(byte[] xid) {
        return ByteBuffer.wrap(xid);
    }

    /**
     * The time branch deadlines are set and checked in: steady epoch millis, since a timeout is a duration and a
     * step of the host's clock must neither roll every branch back nor let one run an hour over.
     */
    static long now() {
        return clock.steadyMillis();
    }

    /** Replaces the clock (tests); returns the one it replaced. */
    static TimeSource useClock(TimeSource source) {
        TimeSource was = clock;
        clock = source;
        return was;
    }

    /** Every open branch past its deadline is rolled back, the others' leases renewed. */
    static void tickAll() {
        long now = now();
        for (Branches branches : BY_STORE.values()) {
            for (Branch b : branches.open.values()) {
                try {
                    b.tick(now);
                    if (b.timedOutLongAgo(now)) {
                        branches.forget(b); // nobody asked in ten minutes: the manager has given up on it
                    }
                } catch (RuntimeException e) {
                    org.slf4j.LoggerFactory.getLogger(Branches.class).warn("XA timer: {}", e.toString(), e);
                }
            }
        }
    }
}
