package io.mikyu.kafka.share;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;

/**
 * The members (share consumers) of one {@link ShareLeases} handle: which one a fetch polls, when a new one is made,
 * and when an idle one is retired.
 *
 * <p>A member joins the group before its first fetch is answered, and a join waits for the group coordinator's
 * assignment, which it gives in a heartbeat: some 5 s with Kafka's default share-group heartbeat interval. So a
 * fetch polls a member that has joined whenever one is idle, armed ones first (their fetch may be running already),
 * and a member that is still joining only when no member has joined or none became idle within {@link #WAIT}; a new
 * member is made only then. Members are made in bursts (the JMS provider writes automatic acks within 50 ms, and a
 * member is busy until then), so one idle for {@code retireAfter} is closed (its group leave done), down to one.
 */
final class ShareMembers {

    /**
     * How long a fetch waits (within its own wait) for a member to become idle before it polls one still joining or
     * makes a new one. Without it every fetch made while the members held records made a member: a JMS consumer acks
     * in batches (64, or after 50 ms), so each of its fetches found its last member busy, and a 20 s run of four
     * consumers ended with dozens of share consumers, each a thread and a group member (bench/kafka).
     */
    static final Duration WAIT = Duration.ofMillis(200);
    /** How long a member with no records and no poll stays before it is retired (a handle keeps one). */
    static final Duration RETIRE_AFTER = Duration.ofSeconds(30);

    private final IntFunction<ShareMember> factory;
    private final List<ShareMember> all = new CopyOnWriteArrayList<>();
    /** Notified whenever acknowledgements may have made a member idle. */
    private final Object settled = new Object();
    private final AtomicLong made = new AtomicLong();
    private final AtomicLong retired = new AtomicLong();
    /** Retired members whose close (a group leave) is still under way: they may still acquire records. */
    private final AtomicInteger closing = new AtomicInteger();
    private volatile long retireAfterNanos;
    private volatile boolean closed;

    /** @param factory makes a member acquiring up to the given number of records per share fetch */
    ShareMembers(IntFunction<ShareMember> factory, Duration retireAfter) {
        this.factory = factory;
        retireAfter(retireAfter);
    }

    /**
     * A member that holds nothing, claimed for the caller's poll: an idle one that has joined (armed first), waiting
     * for one up to {@link #WAIT} and the fetch's {@code deadline}; else an idle one still joining, else a new one
     * acquiring up to {@code batch} records per share fetch; {@code null} once closed.
     */
    ShareMember claim(int batch, long deadline) throws InterruptedException {
        if (closed) {
            return null;
        }
        long now = System.nanoTime();
        long waitUntil = now + Math.min(WAIT.toNanos(), Math.max(0, deadline - now));
        synchronized (settled) {
            while (true) {
                ShareMember m = claimIdle(true);
                if (m != null) {
                    return m;
                }
                if (!anyJoined() && (m = claimIdle(false)) != null) {
                    // None has joined yet: polling one that is joining is all a fetch can do.
                    return m;
                }
                long left = waitUntil - System.nanoTime();
                if (left <= 0 || all.isEmpty()) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(settled, left);
            }
        }
        ShareMember m = claimIdle(false);
        if (m != null) {
            return m;
        }
        m = factory.apply(batch);
        m.claimIfIdle();
        all.add(m);
        made.incrementAndGet();
        if (closed) {
            // Closed meanwhile: closeAll may not have seen it.
            all.remove(m);
            m.close();
            return null;
        }
        return m;
    }

    /** An idle member claimed, armed first, among those that have joined ({@code joined}) or all of them. */
    private ShareMember claimIdle(boolean joined) {
        for (ShareMember m : all) {
            if (m.armed() && (!joined || m.joined()) && m.claimIfIdle()) {
                return m;
            }
        }
        for (ShareMember m : all) {
            if ((!joined || m.joined()) && m.claimIfIdle()) {
                return m;
            }
        }
        return null;
    }

    private boolean anyJoined() {
        for (ShareMember m : all) {
            if (m.joined()) {
                return true;
            }
        }
        return false;
    }

    /** Wakes fetches waiting for an idle member. */
    void mayBeIdle() {
        synchronized (settled) {
            settled.notifyAll();
        }
    }

    /** How long a member that holds nothing and is not polled by a fetch stays before it is retired. */
    void retireAfter(Duration idle) {
        retireAfterNanos = idle.toNanos();
    }

    /**
     * Closes the members that held nothing and were not polled by a fetch for the retirement time, all but one: each
     * close leaves the group. A member is claimed before it is closed, so no fetch polls it meanwhile, and polled
     * once more without waiting: what a fetch running in the background acquired goes to {@code collected}, and
     * that member stays. Returns how many were closed.
     */
    int retireIdle(BiConsumer<ShareMember, ShareMember.Polled> collected) {
        long now = System.nanoTime();
        List<ShareMember> idle = new ArrayList<>();
        for (ShareMember m : all) {
            if (closed || all.size() - idle.size() <= 1 || !m.claimIfIdleFor(retireAfterNanos, now)) {
                continue;
            }
            ShareMember.Polled got;
            try {
                got = m.collectBeforeClose();
            } catch (RuntimeException e) {
                idle.add(m); // closing, or its consumer failed: closed all the same
                continue;
            }
            if (got.records().isEmpty()) {
                idle.add(m);
            } else {
                collected.accept(m, got);
            }
        }
        for (ShareMember m : idle) {
            all.remove(m);
            retired.incrementAndGet();
            closing.incrementAndGet();
            // Off the sweeper's thread, which serves every handle: a close waits for the group leave's answer.
            Thread closer = new Thread(() -> {
                try {
                    m.close();
                } catch (RuntimeException e) {
                    // Its leave failed: the group drops it once its session times out.
                } finally {
                    closing.decrementAndGet();
                }
            }, "mikyu-kafka-share-retire");
            closer.setDaemon(true);
            closer.start();
        }
        return idle.size();
    }

    /** Whether a member may be retired soon: more than one, and one holds nothing (what a sweep looks for). */
    boolean mayRetire() {
        if (all.size() < 2) {
            return false;
        }
        for (ShareMember m : all) {
            if (m.idle()) {
                return true;
            }
        }
        return false;
    }

    /** The members now (iterated: as they were when the iteration began). */
    List<ShareMember> all() {
        return all;
    }

    /** Members now. */
    int size() {
        return all.size();
    }

    /**
     * Retired members still closing: until its close is done a share consumer's fetch may still acquire a record,
     * which its close then gives back with a delivery counted.
     */
    int closing() {
        return closing.get();
    }

    /** Members made so far (each a group join). */
    long made() {
        return made.get();
    }

    /** Members retired so far (each a group leave). */
    long retired() {
        return retired.get();
    }

    /** Ends fetches in progress and closes every member: what they held returns to the group. */
    void closeAll() {
        closed = true;
        for (ShareMember m : all) {
            m.wakeup();
        }
        for (ShareMember m : all) {
            try {
                m.close();
            } catch (RuntimeException e) {
                // Closing: what it held returns to the group when its locks run out.
            }
        }
        all.clear();
    }
}
