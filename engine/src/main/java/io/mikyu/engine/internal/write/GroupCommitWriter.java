package io.mikyu.engine.internal.write;

import io.mikyu.engine.MikyuException;
import io.mikyu.engine.StorageFullException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.internal.format.BatchDescriptor;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The single writer thread behind every queue of a store: group commit across producers and queues.
 *
 * <p>Producers encode and checksum their batches on their own threads and hand them over through a lock-free
 * MPSC queue (JCTools). The writer drains everything that has arrived (up to {@code maxCycleBytes}), writes each
 * touched queue's share with one positional write into its active segment, issues one fsync per touched file if
 * any request in the cycle asked for {@code SYNC}, publishes the records to readers, and completes the requests.
 * While an fsync runs, new requests queue up and form the next, larger cycle: that is what lets eight synchronous
 * producers share one fsync instead of waiting for eight.
 *
 * <p>A request may lead others ({@link #appendThen}): they are written in a second pass of its cycle, after its
 * fsync, so a transaction's queue writes never reach a file before its COMMIT record is durable, yet wait for no
 * cycle of their own.
 *
 * <p>Control tasks (queue deletion, close) run on the same thread between cycles, so they never race a write.
 * Asynchronous data is fsynced by {@link BackgroundFlusher} on another thread, so a flush of hundreds of
 * megabytes never stalls the producers behind this one.
 */
public final class GroupCommitWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);

    /** Anything the writer can be handed: an append or a control task. */
    private static final class ControlTask {
        final Supplier<Object> action;
        final CompletableFuture<Object> done = new CompletableFuture<>();

        ControlTask(Supplier<Object> action) {
            this.action = action;
        }
    }

    private final MpscUnboundedXaddArrayQueue<Object> inbox = new MpscUnboundedXaddArrayQueue<>(1024);
    private final Thread thread;
    private final long maxCycleBytes;
    private final DiskSpaceGuard diskGuard;
    private final WriterMetrics metrics;

    private volatile boolean parked;
    /** The writer is in a cycle's fsyncs: a sync request submitted now waits for them (see {@link #submit}). */
    private volatile boolean fsyncing;
    private volatile boolean running = true;

    // writer-thread state
    private final List<AppendRequest> cycle = new ArrayList<>();
    /** The requests of the cycle's pass being written after their leaders (see {@link #appendThen}). */
    private final List<AppendRequest> followers = new ArrayList<>();
    private final Map<WriteTarget, List<AppendRequest>> byTarget = new IdentityHashMap<>();
    private Object carried;
    /** Sizes of the recent cycles that fsynced, and how long the last fsync took: see {@link #gather}. */
    private final int[] recentSyncCycleSizes = new int[8];
    private int recentSyncCycles;
    private long lastFsyncNanos;
    /** How long the idle writer polls before it parks. */
    private static final long IDLE_SPIN_NANOS = 20_000;
    /** The last 8 idle spins, newest in bit 0: 1 if work came while spinning. See {@link #idle}. */
    private int spinHits = 0xFF;
    private int idles;
    /** Upper bound on waiting for more producers before an fsync. */
    private static final long MAX_GATHER_NANOS = 150_000;

    public GroupCommitWriter(String name, long maxCycleBytes, DiskSpaceGuard diskGuard,
                             WriterMetrics metrics) {
        this.maxCycleBytes = maxCycleBytes;
        this.diskGuard = diskGuard;
        this.metrics = metrics;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Appends and waits as the request asks; returns the batch's base offset. */
    public long append(AppendRequest request) {
        if (!running) {
            throw new StoreClosedException("the store is closed");
        }
        submit(request);
        return request.await();
    }

    /** Submits an asynchronous request (see {@link AppendRequest.Callback}); does not wait. */
    public void appendAsync(AppendRequest request) {
        if (!running) {
            throw new StoreClosedException("the store is closed");
        }
        submit(request);
    }

    /**
     * Submits all requests back to back (they usually land in one group commit), then waits for all of them.
     * Throws the first failure after every request finished.
     */
    public void appendAll(List<AppendRequest> requests) {
        if (!running) {
            throw new StoreClosedException("the store is closed");
        }
        for (AppendRequest r : requests) {
            markIfBehindFsync(r);
            inbox.offer(r);
        }
        if (parked) {
            LockSupport.unpark(thread);
        }
        RuntimeException first = null;
        for (AppendRequest r : requests) {
            try {
                r.await();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Appends {@code first}, then, in the same cycle and only once {@code first} is written and (if it asked)
     * fsynced, the requests {@code then}: nothing of them reaches the files before {@code first} is durable, yet
     * they cost no cycle of their own. If {@code first} fails they fail unwritten. Waits for {@code first} only;
     * {@link #awaitAll} waits for the others.
     *
     * @return {@code first}'s base offset
     */
    public long appendThen(AppendRequest first, List<AppendRequest> then) {
        if (!running) {
            throw new StoreClosedException("the store is closed");
        }
        first.followers = then.isEmpty() ? null : List.copyOf(then);
        submit(first);
        return first.await();
    }

    /** Waits for every request (submitted by {@link #appendThen}); throws the first failure after all finished. */
    public static void awaitAll(List<AppendRequest> requests) {
        RuntimeException first = null;
        for (AppendRequest r : requests) {
            try {
                r.await();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Runs {@code action} on the writer thread between cycles and returns its result. */
    @SuppressWarnings("unchecked")
    public <T> T execute(Supplier<T> action) {
        if (Thread.currentThread() == thread) {
            return action.get();
        }
        ControlTask task = new ControlTask((Supplier<Object>) action);
        submit(task);
        try {
            return (T) task.done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MikyuException("interrupted waiting for the writer", e);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new MikyuException(e.getCause().toString(), e.getCause());
        }
    }

    private void submit(Object item) {
        if (item instanceof AppendRequest r) {
            markIfBehindFsync(r);
        }
        inbox.offer(item);
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Counts the synchronous requests that arrive while an fsync is in progress: they wait for it to end, then for
     * their own cycle's. Approximate (an fsync may end between the check and the offer), and enough to tell how much
     * overlapping fsyncs would save (see architecture.md, "Pipelined fsyncs").
     */
    private void markIfBehindFsync(AppendRequest r) {
        if (r.sync && fsyncing) {
            r.behindFsync = true;
        }
    }

    private void run() {
        while (running || !inbox.isEmpty()) {
            try {
                if (!drainCycle()) {
                    idle();
                }
            } catch (Throwable t) {
                LOG.error("writer cycle failed; its requests were failed", t);
                MikyuException failure = new MikyuException("internal writer error: " + t, t);
                failAll(cycle, failure);
                failAll(followers, failure);
                cycle.clear();
                followers.clear();
                byTarget.clear();
            }
        }
    }

    private void idle() {
        // A producer that just got its completion usually appends again within microseconds; catching that
        // without a park/unpark round trip saves tens of microseconds per synchronous append. But only while it
        // pays: when work comes less often than the spin lasts (requests from a broker's connections, a trickle),
        // spinning just takes a core from the threads that make the work (on two cores a fifth of a remote
        // broker's throughput). So spin while at least half of the last 8 spins caught work, and try once every
        // 64 idles otherwise.
        boolean probe = (++idles & 63) == 0;
        if (Integer.bitCount(spinHits & 0xFF) >= 4 || probe) {
            long spinUntil = System.nanoTime() + IDLE_SPIN_NANOS;
            while (System.nanoTime() < spinUntil) {
                if (!inbox.isEmpty()) {
                    spinHits = probe ? 0xFF : (spinHits << 1) | 1;
                    return;
                }
                Thread.onSpinWait();
            }
            spinHits <<= 1;
        }
        parked = true;
        if (inbox.isEmpty() && running) {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(100));
        }
        parked = false;
    }

    /** One commit cycle. Returns {@code false} if there was nothing to do. */
    private boolean drainCycle() {
        long bytes = 0;
        Object item = carried != null ? carried : inbox.relaxedPoll();
        carried = null;
        if (item == null) {
            return false;
        }
        while (item != null) {
            if (item instanceof ControlTask task) {
                if (!cycle.isEmpty()) {
                    carried = task; // commit what came before it first
                    break;
                }
                runControl(task);
                return true;
            }
            AppendRequest r = (AppendRequest) item;
            if (!cycle.isEmpty() && bytes + r.batch.length > maxCycleBytes) {
                carried = r;
                break;
            }
            cycle.add(r);
            bytes += r.batch.length;
            if (r.behindFsync) {
                metrics.countSyncBehindFsync();
            }
            item = inbox.relaxedPoll();
            if (item == null && carried == null) {
                item = gather();
            }
        }
        commit(bytes);
        return true;
    }

    /**
     * Before an fsync, waits a moment for producers that are about to arrive. After a sync cycle completes its
     * requests, their producers need time to wake up and append again (on a small machine, time to get a core at
     * all); the next cycle would start with only the first of them and pay a whole fsync for it. While this cycle
     * is smaller than the largest of the recent sync cycles, wait for up to half the last fsync's time (at most
     * 150 µs), yielding the core so the producers can run. A single producer never waits (its cycle is never
     * smaller than the recent ones), so its latency stays one fsync; a producer that left costs at most a few
     * short waits until it drops out of the recent cycles.
     */
    private Object gather() {
        int target = recentSyncCycleMax();
        if (cycle.size() >= target || !containsSync()) {
            return null;
        }
        long deadline = System.nanoTime() + Math.min(MAX_GATHER_NANOS, lastFsyncNanos / 2);
        Object next;
        while ((next = inbox.relaxedPoll()) == null) {
            if (System.nanoTime() >= deadline) {
                return null;
            }
            Thread.yield();
        }
        return next;
    }

    private int recentSyncCycleMax() {
        int max = 0;
        for (int size : recentSyncCycleSizes) {
            max = Math.max(max, size);
        }
        return max;
    }

    private boolean containsSync() {
        for (AppendRequest r : cycle) {
            if (r.sync) {
                return true;
            }
        }
        return false;
    }

    private void runControl(ControlTask task) {
        try {
            task.done.complete(task.action.get());
        } catch (Throwable t) {
            task.done.completeExceptionally(t);
        }
    }

    /**
     * Writes the cycle's requests, then the requests that follow them ({@link #appendThen}) in a second pass of the
     * same cycle: their bytes reach the files only after their leaders' fsync.
     */
    private void commit(long bytes) {
        List<AppendRequest> next = commitPass(cycle, bytes, true);
        cycle.clear();
        while (!next.isEmpty()) {
            followers.addAll(next);
            long followerBytes = 0;
            for (AppendRequest r : followers) {
                followerBytes += r.batch.length;
            }
            next = commitPass(followers, followerBytes, false);
            followers.clear();
        }
    }

    private static void failAll(List<AppendRequest> requests, RuntimeException failure) {
        for (AppendRequest r : requests) {
            r.fail(failure);
            if (r.followers != null) {
                failAll(r.followers, failure);
            }
        }
    }

    /**
     * One pass: writes {@code requests}, fsyncs if any asked, publishes, completes them; returns the requests that
     * follow the written ones, and fails those that follow failed ones. {@code firstPass}: the cycle's own requests,
     * whose sizes and fsync time steer {@link #gather}.
     */
    private List<AppendRequest> commitPass(List<AppendRequest> requests, long bytes, boolean firstPass) {
        long start = System.nanoTime();
        boolean anySync = false;
        StorageFullException full = diskGuard.check(bytes);
        for (AppendRequest r : requests) {
            if (full != null) {
                r.fail(full);
            } else if (!r.target.isOpen()) {
                r.fail(new StoreClosedException(r.target.describe() + " is closed or deleted"));
            } else if (r.target.failure() != null) {
                r.fail(r.target.failure());
            } else {
                byTarget.computeIfAbsent(r.target, t -> new ArrayList<>()).add(r);
                anySync |= r.sync;
            }
        }
        List<WriteTarget> written = new ArrayList<>(byTarget.size());
        for (Map.Entry<WriteTarget, List<AppendRequest>> e : byTarget.entrySet()) {
            WriteTarget target = e.getKey();
            try {
                diskGuard.written(target.write(e.getValue()));
                written.add(target);
            } catch (PartialWriteException partial) {
                // The first requests are in a sealed (fsynced) segment and readable: they succeed, the rest fail.
                target.abort();
                List<AppendRequest> ofTarget = e.getValue();
                List<AppendRequest> refused = ofTarget.subList(partial.stored(), ofTarget.size());
                RuntimeException failure = diskGuard.translate(partial.getCause(), target.describe());
                for (AppendRequest r : refused) {
                    r.fail(failure);
                }
                refused.clear();
                written.add(target);
            } catch (IOException | RuntimeException ex) {
                target.abort();
                RuntimeException failure = diskGuard.translate(ex, target.describe());
                for (AppendRequest r : e.getValue()) {
                    r.fail(failure);
                }
            }
        }
        if (anySync) {
            long fsyncStart = System.nanoTime();
            fsyncing = true;
            try {
                for (WriteTarget target : written) {
                    forceOrFail(target, byTarget.get(target));
                }
            } finally {
                fsyncing = false;
            }
            long fsyncNanos = System.nanoTime() - fsyncStart;
            if (firstPass) {
                lastFsyncNanos = fsyncNanos;
                recentSyncCycleSizes[recentSyncCycles++ & (recentSyncCycleSizes.length - 1)] = requests.size();
            }
            metrics.fsyncNanos(fsyncNanos);
        }
        int completed = 0;
        for (WriteTarget target : written) {
            List<AppendRequest> ofTarget = byTarget.get(target);
            if (!ofTarget.isEmpty()) { // else the force failed; already failed and aborted
                target.publish();
                completed += ofTarget.size();
            }
        }
        // Counted before any producer returns, so stats read after an append include its cycle.
        if (firstPass) {
            metrics.cycle(requests.size(), completed, bytes, System.nanoTime() - start);
        } else {
            metrics.followers(completed, bytes);
        }
        for (WriteTarget target : written) {
            for (AppendRequest r : byTarget.get(target)) {
                r.complete(BatchDescriptor.baseOffset(r.batch));
            }
        }
        byTarget.clear();
        List<AppendRequest> next = List.of();
        for (AppendRequest r : requests) {
            if (r.followers == null) {
                continue;
            }
            if (r.isDone()) {
                if (next.isEmpty()) {
                    next = new ArrayList<>();
                }
                next.addAll(r.followers);
            } else {
                RuntimeException cause = r.failure();
                failAll(r.followers, new MikyuException("not written: the record it follows failed"
                        + (cause == null ? "" : " (" + cause.getMessage() + ")"), cause));
            }
        }
        return next;
    }

    private void forceOrFail(WriteTarget target, List<AppendRequest> requests) {
        try {
            target.force();
            target.forcedInCycle();
            metrics.fsync();
        } catch (IOException | RuntimeException ex) {
            // After a failed fsync the page cache state is unknown: never acknowledge, never publish (and the
            // target refuses every later request: see SegmentedLog.failure()).
            metrics.fsyncFailure();
            LOG.error("fsync of {} failed; it is stopped until the store is reopened", target.describe(), ex);
            target.abort();
            RuntimeException failure = new MikyuException("fsync failed for " + target.describe() + ": " + ex, ex);
            for (AppendRequest r : requests) {
                r.fail(failure);
            }
            requests.clear();
        }
    }

    /** Stops after completing everything submitted so far, then fsyncs what is dirty. */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Object item;
        while ((item = inbox.relaxedPoll()) != null) {
            if (item instanceof AppendRequest r) {
                failAll(List.of(r), new StoreClosedException("the store closed before this append was written"));
            } else if (item instanceof ControlTask t) {
                t.done.completeExceptionally(new StoreClosedException("the store is closed"));
            }
        }
    }

    public boolean isWriterThread() {
        return Thread.currentThread() == thread;
    }
}
