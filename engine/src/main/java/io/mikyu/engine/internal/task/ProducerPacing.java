package io.mikyu.engine.internal.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.TimeSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Producer pacing ({@link EngineConfig#paceProducersAbove()}) of one queue: while more tasks are ready than the
 * limit and consumers are taking, producers wait for their share of the takes. Shares its ledger's lock: counters
 * are guarded by it, flags are read without it. Whether consumers are taking, and how long a producer has waited,
 * are read on the engine's steady clock ({@link EngineConfig#timeSource()}), so a test can hold "the consumers are
 * taking" true however its threads are scheduled; the waits themselves are real time.
 */
final class ProducerPacing {

    /** Consumers that took nothing for this long are not busy: slow workers do not hold producers back. */
    private static final long CONSUMERS_IDLE_MILLIS = 20;
    /** A steady time long before any: "never took" (differences with it cannot overflow). */
    private static final long NEVER = Long.MIN_VALUE / 4;

    private final ReentrantLock lock;
    private final TaskQueueState state;
    private final Condition roomFreed;
    private final int paceAbove;
    private final TimeSource clock;
    private volatile boolean crowded;
    private volatile long lastTakeMillis = NEVER;
    private long takenTotal;
    /** The take count the last paced producer waits for. */
    private long paceTarget;
    /** When this thread last took from this queue: a consumer that also produces is never paced by itself. */
    private final ThreadLocal<long[]> lastTakeHere = ThreadLocal.withInitial(() -> new long[] {NEVER});
    private long pacedWaits;
    /** Producers paced without a thread ({@link #awaitRoomAsync}): a take makes them look again. */
    private final List<PacedProducer> pacedProducers = new ArrayList<>();

    ProducerPacing(ReentrantLock lock, TaskQueueState state, int paceAbove, TimeSource clock) {
        this.lock = lock;
        this.state = state;
        this.roomFreed = lock.newCondition();
        this.paceAbove = paceAbove;
        this.clock = clock;
    }

    /** Under the lock, after a consumer took {@code count} tasks: paced producers may go on sooner. */
    void took(int count) {
        lastTakeMillis = clock.steadyMillis();
        lastTakeHere.get()[0] = lastTakeMillis;
        takenTotal += count;
        if (crowded) {
            crowded = state.readyCount() > paceAbove;
            if (lock.hasWaiters(roomFreed)) {
                roomFreed.signalAll();
            }
            if (!pacedProducers.isEmpty()) {
                for (PacedProducer p : pacedProducers) {
                    p.lookAgain();
                }
                pacedProducers.clear();
            }
        }
    }

    /**
     * Paces a producer about to add {@code incoming} tasks: while the queue is crowded (more ready tasks than
     * {@link io.mikyu.engine.EngineConfig#paceProducersAbove()}) and its consumers are taking tasks, wait until
     * they have taken as many as this producer (after those waiting before it) adds, or the backlog fell under the
     * limit, or they stopped taking, or {@link io.mikyu.engine.EngineConfig#PACING_MAX_WAIT} passed. A queue nobody consumes from is never paced:
     * it buffers at full speed. Producers and consumers then share the machine in proportion to the work, and
     * the backlog the consumers work through stays in memory.
     */
    void awaitRoom(int incoming) {
        if (!wouldPace()) {
            return;
        }
        // A worker that takes tasks and enqueues follow-ups (or retries) would wait for its own takes.
        if (clock.steadyMillis() - lastTakeHere.get()[0] <= CONSUMERS_IDLE_MILLIS) {
            return;
        }
        lock.lock();
        try {
            long deadline = clock.steadyMillis() + EngineConfig.PACING_MAX_WAIT.toMillis();
            // Producers take turns: each waits for its own share of the consumers' takes, so four producers
            // waiting at once add what the consumers took, not four times that.
            long target = Math.max(takenTotal, paceTarget) + incoming;
            paceTarget = target;
            pacedWaits++;
            while (crowded && takenTotal < target && clock.steadyMillis() - lastTakeMillis <= CONSUMERS_IDLE_MILLIS) {
                long remaining = deadline - clock.steadyMillis();
                if (remaining <= 0) {
                    break;
                }
                // Wake at least once per idle period: consumers that stopped taking send no signal.
                roomFreed.awaitNanos(TimeUnit.MILLISECONDS.toNanos(Math.min(remaining, CONSUMERS_IDLE_MILLIS)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the enqueue goes on; the caller sees the flag
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@link #awaitRoom} without holding a thread: {@code proceed} runs at once on this thread if the producer need
     * not wait, else on {@code timer} once it may go on (under the same rules and the same longest wait). Returns
     * whether it waits.
     */
    boolean awaitRoomAsync(int incoming, ScheduledExecutorService timer, Runnable proceed) {
        long target;
        lock.lock();
        try {
            if (!wouldPace()) {
                target = -1;
            } else {
                target = Math.max(takenTotal, paceTarget) + incoming;
                paceTarget = target;
                pacedWaits++;
            }
        } finally {
            lock.unlock();
        }
        if (target < 0) {
            proceed.run();
            return false;
        }
        PacedProducer paced = new PacedProducer(target, clock.steadyMillis() + EngineConfig.PACING_MAX_WAIT.toMillis(),
                timer, proceed);
        try {
            timer.execute(paced::tick);
        } catch (RejectedExecutionException e) {
            paced.go(); // the timer is shutting down: do not hold the producer
        }
        return true;
    }

    /**
     * A producer waiting for its share of the consumers' takes: looks again after each take and, on its timer, at
     * least once per idle period (consumers that stopped taking send no signal) until its longest wait is over.
     */
    private final class PacedProducer {
        private final long target;
        private final long deadline;
        private final ScheduledExecutorService timer;
        private final Runnable proceed;
        private final AtomicBoolean done = new AtomicBoolean();

        PacedProducer(long target, long deadline, ScheduledExecutorService timer, Runnable proceed) {
            this.target = target;
            this.deadline = deadline;
            this.timer = timer;
            this.proceed = proceed;
        }

        /** Under the lock, from a take: look again on the timer's thread. */
        void lookAgain() {
            try {
                timer.execute(this::check);
            } catch (RejectedExecutionException e) {
                // the timer is shut down: its own tick has gone with it, and so has whoever waits for this
            }
        }

        /** The timer's round: look, and come back within an idle period while still waiting. */
        void tick() {
            if (check()) {
                return;
            }
            long delay = Math.max(0, Math.min(deadline - clock.steadyMillis(), CONSUMERS_IDLE_MILLIS));
            try {
                timer.schedule(this::tick, delay, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                go(); // the timer is shutting down: do not hold the producer
            }
        }

        /** Proceeds if the producer may go on; true if it did (now or before). */
        private boolean check() {
            if (done.get()) {
                return true;
            }
            lock.lock();
            try {
                long now = clock.steadyMillis();
                boolean wait = crowded && takenTotal < target && now - lastTakeMillis <= CONSUMERS_IDLE_MILLIS
                        && now < deadline;
                if (wait) {
                    if (!pacedProducers.contains(this)) {
                        pacedProducers.add(this);
                    }
                    return false;
                }
                pacedProducers.remove(this);
            } finally {
                lock.unlock();
            }
            go();
            return true;
        }

        private void go() {
            if (done.compareAndSet(false, true)) {
                proceed.run();
            }
        }
    }

    /** How many enqueues were paced (waited for consumers) so far. */
    long pacedWaits() {
        lock.lock();
        try {
            return pacedWaits;
        } finally {
            lock.unlock();
        }
    }

    /** Whether an enqueue now would wait for consumers (see {@link #awaitRoom}), as a thread that took none sees it. */
    boolean wouldPace() {
        return crowded && clock.steadyMillis() - lastTakeMillis <= CONSUMERS_IDLE_MILLIS;
    }

    /** Under the lock, after tasks became ready: whether producers are to be paced from now on. */
    void noteReady() {
        if (paceAbove > 0 && !crowded && state.readyCount() > paceAbove) {
            crowded = true;
        }
    }
}
