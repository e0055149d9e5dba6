package io.mikyu.engine.internal.write;

import io.mikyu.engine.MikyuException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.internal.format.BatchDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * fsyncs beside the writer, for the targets that ask for it ({@link WriteTarget#fsyncPoint()}: the transaction
 * log). The writer writes and publishes a cycle's share of such a target, hands its requests here and goes on with
 * the next cycle at once; one of {@link #THREADS} threads fsyncs and completes them. A synchronous append that
 * arrives while an fsync is in progress is thus written and fsynced beside it instead of waiting for it to end: on
 * the development disk two overlapping fsyncs of one file take little longer than one (measured:
 * docs/performance.md), so such an append waits about one fsync instead of one and a half.
 *
 * <p>Rules, each of which a test shows:
 * <ul>
 *   <li>An fsync covers what was handed before it began (one thread takes every request handed so far: group
 *       commit), and also everything written before that; so a later fsync that ends first completes the earlier
 *       requests too.</li>
 *   <li>Completions run in the order the requests were handed (the order of their offsets), whichever fsync ends
 *       first.</li>
 *   <li>A failed fsync stops its target and fails every request it was to cover and every one not yet completed;
 *       nothing is completed on a stopped target, even by an fsync that succeeded (the kernel may have dropped the
 *       pages the failure was about). The writer then makes the target forget what it wrote after the last
 *       acknowledged request ({@link WriteTarget#discardUnacknowledged}): a COMMIT whose caller was told it failed
 *       is not applied by the next open.</li>
 *   <li>Requests that follow a completed one ({@link GroupCommitWriter#appendThen}) go back to the writer, which
 *       writes them in a pass of their own: only after their leader's fsync, as before, and only from here (the
 *       writer hands a cycle's requests over after it has dealt with the followers of the rest, since a handed
 *       request may complete at once).</li>
 * </ul>
 */
final class FsyncPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(FsyncPipeline.class);

    /** fsyncs in progress at most: two already overlap the one in progress when a sync append arrives. */
    static final int THREADS = 2;

    /** A cycle's requests to one target, handed over in order ({@code seq}). */
    private record Handed(long seq, WriteTarget target, FsyncPoint point, List<AppendRequest> requests) {
    }

    private final WriterMetrics metrics;
    /** Where the requests that follow completed ones go: the writer's inbox. */
    private final Consumer<List<AppendRequest>> followers;
    /** Runs a task on the writer thread, between its cycles: a stopped target's discard. */
    private final Consumer<Runnable> onWriter;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition handedOver = lock.newCondition();
    private final Condition drained = lock.newCondition();
    private final Thread[] threads = new Thread[THREADS];

    // under lock
    private final ArrayDeque<Handed> pending = new ArrayDeque<>();
    private long nextSeq;
    /** The first handed cycle no fsync has started for. */
    private long firstUnstarted;
    /** Every handed cycle up to this one is durable (an fsync that began after it was written succeeded). */
    private long covered = -1;
    private boolean running = true;

    FsyncPipeline(String name, WriterMetrics metrics, Consumer<List<AppendRequest>> followers,
                  Consumer<Runnable> onWriter) {
        this.metrics = metrics;
        this.followers = followers;
        this.onWriter = onWriter;
        for (int i = 0; i < THREADS; i++) {
            threads[i] = new Thread(this::run, name + "-fsync-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
    }

    /**
     * Writer thread: {@code requests} (to {@code target}, written and published) are durable once {@code point} is
     * fsynced; completes them then. Never blocks.
     */
    void hand(WriteTarget target, FsyncPoint point, List<AppendRequest> requests) {
        lock.lock();
        try {
            if (!running) {
                failAll(requests, new StoreClosedException("the store closed before this append was fsynced"));
                return;
            }
            pending.addLast(new Handed(nextSeq++, target, point, new ArrayList<>(requests)));
            handedOver.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Whether requests are still waiting for their fsync. */
    boolean busy() {
        lock.lock();
        try {
            return !pending.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Waits (up to {@code nanos}) until every request handed so far is completed or failed. */
    void awaitDrained(long nanos) throws InterruptedException {
        lock.lock();
        try {
            long left = nanos;
            while (!pending.isEmpty() && left > 0) {
                left = drained.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        try (OwnFile own = new OwnFile()) {
            Map<WriteTarget, FsyncPoint> newest = new IdentityHashMap<>();
            while (true) {
                long upTo;
                lock.lock();
                try {
                    while (running && firstUnstarted == nextSeq) {
                        handedOver.awaitUninterruptibly();
                    }
                    if (firstUnstarted == nextSeq) {
                        return; // stopped, nothing left
                    }
                    // The newest point of each target covers the older ones: every byte written before it.
                    for (Handed h : pending) {
                        if (h.seq >= firstUnstarted) {
                            newest.put(h.target, h.point);
                        }
                    }
                    upTo = nextSeq - 1;
                    firstUnstarted = nextSeq;
                } finally {
                    lock.unlock();
                }
                RuntimeException failure = null;
                for (Map.Entry<WriteTarget, FsyncPoint> e : newest.entrySet()) {
                    failure = force(e.getKey(), e.getValue(), own);
                    if (failure != null) {
                        break;
                    }
                }
                newest.clear();
                finish(upTo, failure);
            }
        }
    }

    private RuntimeException force(WriteTarget target, FsyncPoint point, OwnFile own) {
        long start = System.nanoTime();
        try {
            point.force(own);
            metrics.besideFsync(System.nanoTime() - start);
            return null;
        } catch (IOException ex) {
            metrics.fsyncFailure();
            LOG.error("fsync of {} failed; it is stopped until the store is reopened", target.describe(), ex);
            // Handed to the writer before any request hears of the failure (finish), so before the store can close.
            onWriter.accept(target::discardUnacknowledged);
            return new MikyuException("fsync failed for " + target.describe() + ": " + ex, ex);
        } catch (RuntimeException ex) { // stopped already, or closed
            return ex;
        }
    }

    /** After an fsync that covered every cycle up to {@code upTo}: completes (or fails) what may be, in order. */
    private void finish(long upTo, RuntimeException failure) {
        List<AppendRequest> next = new ArrayList<>();
        lock.lock();
        try {
            if (failure == null) {
                covered = Math.max(covered, upTo);
            }
            Handed h;
            while ((h = pending.peekFirst()) != null && (h.seq <= covered || (failure != null && h.seq <= upTo))) {
                pending.pollFirst();
                RuntimeException stopped = failure != null ? failure : h.target.failure();
                if (stopped != null) {
                    failAll(h.requests, stopped);
                    continue;
                }
                h.point.acknowledged();
                for (AppendRequest r : h.requests) {
                    r.complete(BatchDescriptor.baseOffset(r.batch));
                    if (r.followers != null && r.isDone()) { // not one failed meanwhile: its followers failed too
                        next.addAll(r.followers);
                    }
                }
            }
            // Handed back before anyone hears the pipeline drained (an offer to the writer's inbox: never blocks),
            // so a store closing after awaitDrained writes them before it closes the queues.
            if (!next.isEmpty()) {
                followers.accept(next);
            }
            if (pending.isEmpty()) {
                drained.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Fails {@code requests} and those that follow them. */
    static void failAll(List<AppendRequest> requests, RuntimeException failure) {
        for (AppendRequest r : requests) {
            r.fail(failure);
            if (r.followers != null) {
                failAll(r.followers, new MikyuException("not written: the record it follows failed ("
                        + failure.getMessage() + ")", failure));
            }
        }
    }

    /** Finishes the fsyncs of what was handed over, then stops the threads. */
    void close() {
        lock.lock();
        try {
            running = false;
            handedOver.signalAll();
        } finally {
            lock.unlock();
        }
        for (Thread t : threads) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        lock.lock();
        try {
            Handed h;
            while ((h = pending.pollFirst()) != null) {
                failAll(h.requests, new StoreClosedException("the store closed before this append was fsynced"));
            }
            drained.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
