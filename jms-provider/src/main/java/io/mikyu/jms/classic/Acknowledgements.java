package io.mikyu.jms.classic;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.jms.delivery.MessageSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A session's messages delivered and not yet acknowledged to the engine: automatic acks (AUTO/DUPS_OK) waiting to be
 * written as one batch, and messages delivered under CLIENT_ACKNOWLEDGE until {@code acknowledge()} or
 * {@code recover()}. Transacted work is not here but in {@link TransactionWork}.
 */
final class Acknowledgements {

    private static final Logger LOG = LoggerFactory.getLogger(Acknowledgements.class);
    static final int BATCH = 64;
    static final long DELAY_MILLIS = 50;

    /**
     * Writes full batches of automatic acks off the consuming thread, so that the application works on the next
     * messages while the previous batch's write (with {@code durability=sync}, its fsync) completes. Daemon threads,
     * ended after a minute idle.
     */
    private static final ExecutorService WRITER = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "mikyu-ack-writer");
                t.setDaemon(true);
                return t;
            });

    /** Stops renewing a message's lease: it is settled now. */
    private final Consumer<Held> released;
    /** The URL's durability: with SYNC an ack is written and fsynced before it counts as done. */
    private final Durability durability;
    /** DUPS_OK_ACKNOWLEDGE: the application allows lazier acks, so {@link #beforeFetch} leaves them to the batch. */
    private final boolean lazy;
    /** Delivered and not yet acknowledged (CLIENT_ACKNOWLEDGE), in delivery order. */
    private final List<Held> unacked = new ArrayList<>();
    /** AUTO/DUPS_OK messages delivered whose engine ack is not written yet (see {@link #ackSoon}). */
    private final List<Held> pending = new ArrayList<>();
    private long pendingSince;
    /** The full batch being written by {@link #WRITER}: at most one per session, so acks cannot fall behind. */
    private CompletableFuture<Void> writing = CompletableFuture.completedFuture(null);

    Acknowledgements(Consumer<Held> released, Durability durability) {
        this(released, durability, false);
    }

    /** @param lazy DUPS_OK_ACKNOWLEDGE: acks wait for a full batch or the timer even where a fetch waits for them */
    Acknowledgements(Consumer<Held> released, Durability durability, boolean lazy) {
        this.released = released;
        this.durability = durability;
        this.lazy = lazy;
    }

    /** CLIENT_ACKNOWLEDGE: kept until the session's next acknowledge() or recover(). */
    void delivered(Held h) {
        synchronized (unacked) {
            unacked.add(h);
        }
    }

    /**
     * AUTO/DUPS_OK: the message counts as acknowledged; the engine ack is written with others — when
     * {@value #BATCH} are waiting, within {@value #DELAY_MILLIS} ms (the connection's timer), and before anything
     * that must see it (recover, close, unsubscribe). One engine write per batch instead of per message: with a
     * single write per message a consumer runs at the writer's cycle rate. With {@code durability=sync} a full
     * batch is written in the background while the application goes on, its fsync included (one batch at a time:
     * the next full one waits for it). The message
     * stays leased (and renewed) until then, so nobody else receives it; only a crash in between can deliver it
     * again, flagged redelivered.
     */
    void ackSoon(Held h) {
        List<Held> full = null;
        synchronized (pending) {
            if (pending.isEmpty()) {
                pendingSince = System.nanoTime();
            }
            pending.add(h);
            if (pending.size() >= BATCH) {
                full = new ArrayList<>(pending);
                pending.clear();
            }
        }
        if (full == null) {
            return;
        }
        List<Held> batch = full;
        synchronized (this) {
            awaitWriting();
            if (durability == Durability.SYNC) {
                writing = CompletableFuture.runAsync(() -> writeAutomatic(batch), WRITER);
            } else {
                writeAutomatic(batch); // no fsync to wait for: a hand-off to another thread would cost more
            }
        }
    }

    /**
     * Writes the waiting automatic acks, after the batch being written in the background, and returns when done.
     * Never throws: the messages were handed out already, so there is nobody to tell.
     */
    void flush() {
        // One flush at a time: close() must not return while the timer's flush is still waiting for its fsync.
        synchronized (this) {
            awaitWriting();
            List<Held> batch;
            synchronized (pending) {
                if (pending.isEmpty()) {
                    return;
                }
                batch = new ArrayList<>(pending);
                pending.clear();
            }
            writeAutomatic(batch);
        }
    }

    /**
     * Before a consumer of {@code source} fetches with nothing left in its buffer: if that fetch may wait until
     * earlier messages are acked (Kafka's share consumers, {@link MessageSource#fetchWaitsForAcks()}), the waiting
     * automatic acks are written now, one write per fetch; else they wait for a full batch or the timer, and the
     * fetch with them (the timer's {@value #DELAY_MILLIS} ms were most of a durable subscriber's latency on Kafka).
     * Not in a DUPS_OK_ACKNOWLEDGE session: fewer ack writes (less work for the cluster), the fetch's wait allowed.
     */
    void beforeFetch(MessageSource source) {
        if (!lazy && source.fetchWaitsForAcks()) {
            flush();
        }
    }

    /** Writes a batch of automatic acks; a failure is logged, not thrown. */
    private void writeAutomatic(List<Held> batch) {
        int stale;
        try {
            stale = ackAll(batch);
        } catch (RuntimeException e) {
            // Not written, or not known to be (the connection was lost, no answer came): what the store did not
            // take comes back when its lease ends, flagged redelivered.
            LOG.warn("writing {} automatic acknowledgements failed; messages whose acknowledgement the store did not"
                    + " take will be delivered again, flagged redelivered: {}", batch.size(), e.toString());
            return;
        }
        if (stale > 0) {
            // Nobody to tell: receive() or onMessage() returned long ago. The engine counted the delivery.
            LOG.warn("{} automatically acknowledged messages had lost their leases; they were or will be delivered"
                    + " again, flagged redelivered", stale);
        }
    }

    private void awaitWriting() {
        writing.join(); // writeAutomatic catches its failures: join returns normally
    }

    /** The connection's timer: acks that waited long enough are written. */
    void flushIfDue() {
        synchronized (pending) {
            if (pending.isEmpty() || System.nanoTime() - pendingSince < DELAY_MILLIS * 1_000_000L) {
                return;
            }
        }
        flush();
    }

    /**
     * CLIENT_ACKNOWLEDGE: acknowledges every message delivered so far.
     *
     * @throws StaleLeaseException if some could not be (the others are acknowledged): their leases had ended
     */
    void acknowledgeAll() {
        int stale = ackAll(takeUnacked());
        if (stale > 0) {
            throw new StaleLeaseException(stale + " of the messages could not be acknowledged: their leases had ended"
                    + " (their consumer's connection was lost, say), and they were or will be delivered again,"
                    + " flagged redelivered");
        }
    }

    /** The CLIENT_ACKNOWLEDGE messages delivered so far, for recover() or close() to give back. */
    List<Held> takeUnacked() {
        synchronized (unacked) {
            List<Held> all = new ArrayList<>(unacked);
            unacked.clear();
            return all;
        }
    }

    /** Whether a message of the engine group {@code group} (a subscription) is delivered and unacknowledged. */
    boolean unackedFrom(String group) {
        synchronized (unacked) {
            for (Held h : unacked) {
                if (group.equals(h.consumer.subscription())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Acks {@code all}, one write per source; returns how many could not be acked because their lease had ended. */
    private int ackAll(List<Held> all) {
        Map<MessageSource, List<LeaseToken>> bySource = new IdentityHashMap<>();
        for (Held h : all) {
            released.accept(h);
            bySource.computeIfAbsent(h.source, k -> new ArrayList<>()).add(h.token());
        }
        int stale = 0;
        for (Map.Entry<MessageSource, List<LeaseToken>> e : bySource.entrySet()) {
            try {
                e.getKey().ack(e.getValue(), durability);
            } catch (StaleLeaseException refused) {
                // One stale token refuses the whole batch: ack the rest one by one.
                for (LeaseToken t : e.getValue()) {
                    try {
                        e.getKey().ack(List.of(t), durability);
                    } catch (StaleLeaseException gone) {
                        stale++;
                    }
                }
            }
        }
        return stale;
    }
}
