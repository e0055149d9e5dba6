package io.mikyu.engine.internal.memory;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.EngineConfig.TransientMemoryPolicy;
import io.mikyu.engine.Headers;
import io.mikyu.engine.MemoryLimitException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The memory budget of a store's transient tasks: what they take, all queues together and each queue on its own
 * ({@link Account}), against {@link EngineConfig#transientMemoryLimit()} and its per-queue twin, and what an
 * enqueue over a limit does ({@link TransientMemoryPolicy}). Without it a NON_PERSISTENT producer to a queue nobody
 * consumes grows the heap until the JVM dies.
 *
 * <p>Reserving and releasing are atomic additions to two counters (the queue's, then the store's) under the
 * queue's account monitor (uncontended unless producers and consumers of one queue meet), which is what orders them
 * against the account's close; only a blocked enqueue waits on the budget's lock, and a release takes that lock
 * only while one waits.
 * A task is charged when it is admitted and released when it leaves the queue's memory (acked, expired,
 * dead-lettered, purged, or its queue deleted or closed), by the queue's state as it forgets the task.
 */
public final class TransientMemory implements AutoCloseable {

    /** What to do with tasks an enqueue asked to keep in memory. */
    public enum Admission {
        /** Charged: keep them in memory. */
        HELD,
        /** Over a limit under {@link TransientMemoryPolicy#SPILL}: nothing charged, write them instead. */
        SPILL,
        /** Over a limit under {@link TransientMemoryPolicy#BLOCK}, and the caller may not wait: nothing charged. */
        FULL
    }

    /**
     * Estimated heap of one task besides its payload and headers: the queue's entry (about 120 bytes of fields),
     * its slot in the id map (node, boxed id, table: about 56) and the payload array's header (16).
     */
    static final long ENTRY_OVERHEAD = 192;
    /** Estimated heap of one header besides its name's and value's bytes: record, String, two array headers. */
    static final long HEADER_OVERHEAD = 80;

    private final long limit;
    private final long perQueueLimit;
    private final TransientMemoryPolicy policy;
    private final long blockNanos;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong tasks = new AtomicLong();
    private final AtomicLong blocked = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong spilled = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition freed = lock.newCondition();
    private final AtomicInteger waiters = new AtomicInteger();
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();

    public TransientMemory(EngineConfig config) {
        this.limit = config.transientMemoryLimit();
        this.perQueueLimit = config.transientMemoryLimitPerQueue();
        this.policy = config.transientMemoryPolicy();
        this.blockNanos = config.transientMemoryBlockTimeout().toNanos();
        this.registry = config.meterRegistry();
        meters.add(Gauge.builder("mikyu.engine.transient.bytes", bytes, AtomicLong::get).baseUnit("bytes")
                .description("estimated heap of transient (memory-only) tasks, all queues").register(registry));
        meters.add(Gauge.builder("mikyu.engine.transient.tasks", tasks, AtomicLong::get)
                .description("transient (memory-only) tasks, all queues").register(registry));
        meters.add(Gauge.builder("mikyu.engine.transient.limit", this, m -> m.limit).baseUnit("bytes")
                .description("transientMemoryLimit; 0: none").register(registry));
        meters.add(FunctionCounter.builder("mikyu.engine.transient.blocked", blocked, AtomicLong::get)
                .description("transient enqueues that waited for memory").register(registry));
        meters.add(FunctionCounter.builder("mikyu.engine.transient.refused", refused, AtomicLong::get)
                .description("transient enqueues refused for memory (policy fail, or block timed out)")
                .register(registry));
        meters.add(FunctionCounter.builder("mikyu.engine.transient.spilled", spilled, AtomicLong::get)
                .description("transient tasks written to disk for memory (policy spill)").register(registry));
    }

    /** The budget of one queue. */
    public Account account(String queue) {
        return new Account(queue);
    }

    /** Estimated heap of {@code tasks} kept in memory. */
    public static long footprint(List<Task> tasks) {
        long sum = 0;
        for (Task t : tasks) {
            sum += footprint(t.headers(), t.payload());
        }
        return sum;
    }

    /** Estimated heap of one task kept in memory: payload, headers, entry overhead. */
    public static long footprint(Headers headers, byte[] payload) {
        long sum = ENTRY_OVERHEAD + (payload == null ? 0 : payload.length);
        if (headers != null) {
            for (Headers.Header h : headers.asList()) {
                sum += HEADER_OVERHEAD + h.name().length() + (h.value() == null ? 0 : h.value().length);
            }
        }
        return sum;
    }

    public long bytes() {
        return bytes.get();
    }

    public long tasks() {
        return tasks.get();
    }

    public long blockedCount() {
        return blocked.get();
    }

    public long refusedCount() {
        return refused.get();
    }

    public long spilledCount() {
        return spilled.get();
    }

    @Override
    public void close() {
        for (Meter m : meters) {
            registry.remove(m);
        }
        meters.clear();
    }

    /** Adds {@code delta} to {@code counter} unless that takes it over {@code max} (0: no limit). */
    private static boolean tryAdd(AtomicLong counter, long delta, long max) {
        while (true) {
            long now = counter.get();
            if (max > 0 && now + delta > max) {
                return false;
            }
            if (counter.compareAndSet(now, now + delta)) {
                return true;
            }
        }
    }

    private void signalFreed() {
        if (waiters.get() > 0) {
            lock.lock();
            try {
                freed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** What one queue's transient tasks take. Thread-safe. */
    public final class Account {

        private final String queue;
        private final AtomicLong bytes = new AtomicLong();
        private final AtomicLong tasks = new AtomicLong();
        private volatile boolean closed;

        private Account(String queue) {
            this.queue = queue;
        }

        /**
         * Charges {@code count} tasks of {@code size} bytes if both limits allow; otherwise, by the policy, waits
         * for room, says {@link Admission#SPILL}, or throws {@link MemoryLimitException}.
         */
        public Admission admit(long size, int count) {
            return admit(size, count, true);
        }

        /** As {@link #admit(long, int)}; where it would wait and {@code mayWait} is false, {@link Admission#FULL}. */
        public Admission admit(long size, int count, boolean mayWait) {
            if (tryCharge(size, count)) {
                return Admission.HELD;
            }
            if (policy == TransientMemoryPolicy.SPILL) {
                spilled.addAndGet(count);
                return Admission.SPILL;
            }
            if (policy == TransientMemoryPolicy.BLOCK && fitsAtAll(size) && blockNanos > 0) {
                if (!mayWait) {
                    return Admission.FULL;
                }
                blocked.incrementAndGet();
                if (awaitCharge(size, count)) {
                    return Admission.HELD;
                }
            }
            refused.incrementAndGet();
            throw refusal(size, count);
        }

        /** Charges {@code count} tasks of {@code size} bytes if both limits allow now; never waits nor throws. */
        public boolean tryAdmit(long size, int count) {
            return tryCharge(size, count);
        }

        /**
         * Charges without a limit: tasks moved in memory from another queue (dead letters), already counted there.
         * Refused ({@link StoreClosedException}) once the queue is deleted or closed, as any charge.
         */
        public synchronized void force(long size, int count) {
            checkOpen();
            bytes.addAndGet(size);
            tasks.addAndGet(count);
            TransientMemory.this.bytes.addAndGet(size);
            TransientMemory.this.tasks.addAndGet(count);
        }

        /** Gives back what tasks of this queue took; after {@link #close()}, nothing is left to give. */
        public void release(long size, int count) {
            synchronized (this) {
                if (closed) {
                    return;
                }
                bytes.addAndGet(-size);
                tasks.addAndGet(-count);
                TransientMemory.this.bytes.addAndGet(-size);
                TransientMemory.this.tasks.addAndGet(-count);
            }
            signalFreed(); // outside the monitor: a blocked admit holds the budget's lock and then takes it
        }

        /**
         * The queue is deleted or closed: everything it holds is given back, later releases are ignored and later
         * charges refused. A charge and the close take the same monitor, so a charge is either given back here or
         * never made: a charge made after it would count forever what no queue holds.
         */
        public void close() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                TransientMemory.this.bytes.addAndGet(-bytes.getAndSet(0));
                TransientMemory.this.tasks.addAndGet(-tasks.getAndSet(0));
            }
            signalFreed();
        }

        public long bytes() {
            return bytes.get();
        }

        public long tasks() {
            return tasks.get();
        }

        private synchronized boolean tryCharge(long size, int count) {
            checkOpen();
            if (!tryAdd(bytes, size, perQueueLimit)) {
                return false;
            }
            if (!tryAdd(TransientMemory.this.bytes, size, limit)) {
                bytes.addAndGet(-size);
                return false;
            }
            tasks.addAndGet(count);
            TransientMemory.this.tasks.addAndGet(count);
            return true;
        }

        private void checkOpen() {
            if (closed) {
                throw new StoreClosedException("task queue '" + queue + "' is deleted or closed: its transient tasks"
                        + " are no longer counted, nothing was enqueued");
            }
        }

        /** Whether {@code size} could ever be charged: not larger than a limit on its own. */
        private boolean fitsAtAll(long size) {
            return (limit == 0 || size <= limit) && (perQueueLimit == 0 || size <= perQueueLimit);
        }

        private boolean awaitCharge(long size, int count) {
            long deadline = System.nanoTime() + blockNanos;
            waiters.incrementAndGet();
            lock.lock();
            try {
                while (!tryCharge(size, count)) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        return false;
                    }
                    freed.awaitNanos(remaining);
                }
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                lock.unlock();
                waiters.decrementAndGet();
            }
        }

        private MemoryLimitException refusal(long size, int count) {
            String which = perQueueLimit > 0 && bytes.get() + size > perQueueLimit
                    ? "task queue '" + queue + "' holds " + bytes.get() + " bytes of transient tasks, limit "
                            + perQueueLimit + " (transientMemoryLimitPerQueue)"
                    : "transient tasks of all queues take " + TransientMemory.this.bytes.get() + " bytes, limit "
                            + limit + " (transientMemoryLimit)";
            String waited = policy == TransientMemoryPolicy.BLOCK
                    ? (fitsAtAll(size) ? "; waited " + TimeUnit.NANOSECONDS.toMillis(blockNanos)
                            + " ms (transientMemoryBlockTimeout) for consumers to free memory"
                            : "; larger than the limit on its own")
                    : "";
            return new MemoryLimitException("memory limit reached: " + count + " NON_PERSISTENT/transient task(s) of "
                    + size + " bytes refused for task queue '" + queue + "': " + which + waited
                    + "; nothing was enqueued, enqueues succeed again once consumers take tasks (policy "
                    + policy.name().toLowerCase(java.util.Locale.ROOT) + ", transientMemoryPolicy)");
        }
    }
}
