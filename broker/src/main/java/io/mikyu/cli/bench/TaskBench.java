package io.mikyu.cli.bench;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The task-queue workload of {@code mikyu bench run --kind task}.
 *
 * <p>Producer threads enqueue fixed-size tasks to task queues {@code bench-0..} ({@code enqueueBatch} of
 * {@code --batch}), timing every enqueue call. At the same time competing consumers per queue dequeue up to
 * {@code --batch} tasks under a lease and ack them with one {@code ack(List)} call. Every task must be acked
 * exactly once: a task delivered again after its ack, an ack refused, or a task never delivered fails the run.
 * Leases are long enough that none should expire during a healthy run.
 */
public final class TaskBench extends Bench<TaskQueue, Task> {

    static final Duration LEASE = Duration.ofMinutes(1);

    /** Bit {@code firstIndex[worker] + sequence} is set once that task's ack returned. */
    private final AtomicLongArray acked;
    private final long[] firstIndex;

    public TaskBench(Mikyu store, BenchSettings settings, PrintWriter progress) {
        super(store, settings, progress);
        this.acked = new AtomicLongArray(Math.toIntExact((settings.messages() + 63) / 64));
        this.firstIndex = new long[settings.workers()];
        for (int w = 0; w < settings.workers(); w++) {
            firstIndex[w] = settings.firstMessageOf(w);
        }
    }

    @Override
    QueueKind kind() {
        return QueueKind.TASK;
    }

    /**
     * Recreated empty: tasks of an earlier run (left by {@code --consumers 0}, or leased by a process that died)
     * would otherwise be delivered to this run's consumers.
     */
    @Override
    TaskQueue prepareQueue(String name) {
        store.deleteTaskQueue(name);
        return store.createTaskQueue(name, TaskQueueConfig.defaults().withDurability(settings.durability()));
    }

    @Override
    TaskQueue reopenedQueue(String name) {
        return store.taskQueue(name);
    }

    @Override
    void deleteQueue(String name) {
        store.deleteTaskQueue(name);
    }

    @Override
    Task message(byte[] payload) {
        return Task.of(payload);
    }

    @Override
    void write(TaskQueue queue, List<Task> batch) {
        if (batch.size() == 1) {
            queue.enqueue(batch.get(0), settings.durability());
        } else {
            queue.enqueueBatch(batch, settings.durability());
        }
    }

    @Override
    List<Worker> consumers(int queueIndex, TaskQueue queue, long expected, CountDownLatch startGate) {
        Shared shared = new Shared(queueIndex, queue, expected);
        List<Worker> consumers = new ArrayList<>();
        for (int c = 0; c < settings.consumersPerQueue(); c++) {
            consumers.add(new Consumer(shared, startGate));
        }
        return consumers;
    }

    /** What the consumers of one queue share: how many of its tasks have been acked, and when the last were. */
    private static final class Shared {
        final int queueIndex;
        final TaskQueue queue;
        final long expected;
        final AtomicLong acked = new AtomicLong();
        volatile long lastProgressNanos = System.nanoTime();

        Shared(int queueIndex, TaskQueue queue, long expected) {
            this.queueIndex = queueIndex;
            this.queue = queue;
            this.expected = expected;
        }
    }

    /** Dequeues a batch under a lease, checks it, acks it in one call; until the queue's tasks are all acked. */
    private final class Consumer extends Worker {
        final Shared shared;

        Consumer(Shared shared, CountDownLatch startGate) {
            super(startGate);
            this.shared = shared;
        }

        @Override
        void work() throws InterruptedException {
            TaskQueue queue = shared.queue;
            List<LeaseToken> tokens = new ArrayList<>(settings.batch());
            while (shared.acked.get() < shared.expected && !aborted()) {
                List<LeasedTask> tasks = queue.dequeue(settings.batch(), LEASE, POLL_WAIT, null);
                if (tasks.isEmpty()) {
                    if (producersDone && System.nanoTime() - shared.lastProgressNanos > STALL_NANOS
                            && shared.acked.get() < shared.expected) {
                        failVerification("consumers of " + queue.name() + " got no task for "
                                + TimeUnit.NANOSECONDS.toSeconds(STALL_NANOS) + " s after " + shared.acked.get()
                                + " of " + shared.expected + " were acked (queue counts: " + queue.counts() + ")");
                        return;
                    }
                    continue;
                }
                tokens.clear();
                boolean warmUp = shared.expected == WARM_UP;
                for (LeasedTask task : tasks) {
                    String problem = warmUp ? checkShape(task) : check(task);
                    if (problem != null) {
                        failVerification(queue.name() + ": " + problem);
                        return;
                    }
                    tokens.add(task.token());
                }
                try {
                    if (tokens.size() == 1) {
                        queue.ack(tokens.get(0));
                    } else {
                        queue.ack(tokens);
                    }
                } catch (StaleLeaseException e) {
                    failVerification(queue.name() + ": ack of " + tokens.size() + " task(s) refused: " + e.getMessage());
                    return;
                }
                for (LeasedTask task : tasks) {
                    if (!warmUp && !markAcked(index(task.payload()))) {
                        failVerification(queue.name() + ": task " + task.id() + " (" + describe(task.payload())
                                + ") was acked twice");
                        return;
                    }
                }
                consumed.add(tasks.size());
                shared.acked.addAndGet(tasks.size());
                shared.lastProgressNanos = System.nanoTime();
            }
        }

        /** Why {@code task} should not have been delivered, or {@code null} if it is fine. */
        private String check(LeasedTask task) {
            String problem = checkShape(task);
            if (problem != null) {
                return problem;
            }
            byte[] payload = task.payload();
            int worker = BenchPayload.worker(payload);
            long sequence = BenchPayload.sequence(payload);
            if (sequence < 0 || sequence >= settings.messagesOf(worker)) {
                return "task " + task.id() + " is worker " + worker + "'s #" + sequence + ", which it never enqueued";
            }
            if (isAcked(index(payload))) {
                return "task " + task.id() + " (" + describe(payload) + ") was delivered again (attempt "
                        + task.attempt() + ") after it was acked";
            }
            return null;
        }

        /** Why {@code task} is not a task this queue's producers write, or {@code null} if it is one. */
        private String checkShape(LeasedTask task) {
            byte[] payload = task.payload();
            if (payload == null || payload.length != settings.messageSize()) {
                return "task " + task.id() + " has " + (payload == null ? "no" : payload.length + " bytes of")
                        + " payload, expected " + settings.messageSize();
            }
            int worker = BenchPayload.worker(payload);
            if (worker < 0 || worker >= settings.workers() || worker % settings.queues() != shared.queueIndex) {
                return "task " + task.id() + " names worker " + worker + ", which does not write here";
            }
            return null;
        }
    }

    private long index(byte[] payload) {
        return firstIndex[BenchPayload.worker(payload)] + BenchPayload.sequence(payload);
    }

    private static String describe(byte[] payload) {
        return "worker " + BenchPayload.worker(payload) + "'s #" + BenchPayload.sequence(payload);
    }

    private boolean isAcked(long index) {
        return (acked.get((int) (index >>> 6)) & (1L << index)) != 0;
    }

    /** Sets the bit; {@code false} if it was already set. */
    private boolean markAcked(long index) {
        int word = (int) (index >>> 6);
        long bit = 1L << index;
        long before = acked.getAndAccumulate(word, bit, (current, b) -> current | b);
        return (before & bit) == 0;
    }
}
