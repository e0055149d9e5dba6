package io.mikyu.cli.bench;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.RecordHandler;
import io.mikyu.engine.RecordView;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The log-queue workload of {@code mikyu bench run}.
 *
 * <p>Producer threads append fixed-size records to queues {@code bench-0..}, spread round-robin, timing every
 * append call. At the same time tailing consumers read each queue from where the run started with long polls
 * and check, through {@link BenchPayload}, that every record arrives exactly once and in each producer's order.
 */
public final class LogBench extends Bench<LogQueue, Entry> {

    private static final int POLL_RECORDS = 4096;

    public LogBench(Mikyu store, BenchSettings settings, PrintWriter progress) {
        super(store, settings, progress);
    }

    @Override
    QueueKind kind() {
        return QueueKind.LOG;
    }

    /** Kept if it exists: consumers start at its end, so earlier runs' records stay for 'bench reopen'. */
    @Override
    LogQueue prepareQueue(String name) {
        return store.getOrCreateLog(name, LogQueueConfig.defaults().withDurability(settings.durability()));
    }

    @Override
    void deleteQueue(String name) {
        store.deleteLog(name);
    }

    @Override
    Entry message(byte[] payload) {
        return Entry.of(payload);
    }

    @Override
    void write(LogQueue queue, List<Entry> batch) {
        if (batch.size() == 1) {
            queue.append(batch.get(0), settings.durability());
        } else {
            queue.appendBatch(batch, settings.durability());
        }
    }

    @Override
    List<Worker> consumers(int queueIndex, LogQueue queue, long expected, CountDownLatch startGate) {
        List<Worker> consumers = new ArrayList<>();
        for (int c = 0; c < settings.consumersPerQueue(); c++) {
            // Start where this run starts: a reused --data-dir may hold earlier runs' records.
            consumers.add(new Consumer(queueIndex, queue, queue.endOffset(), expected, startGate));
        }
        return consumers;
    }

    /** Tails one queue, checking that each producer's records arrive once and in order. */
    private final class Consumer extends Worker {
        final int queueIndex;
        final LogQueue queue;
        final long firstOffset;
        final long expected;

        Consumer(int queueIndex, LogQueue queue, long firstOffset, long expected, CountDownLatch startGate) {
            super(startGate);
            this.queueIndex = queueIndex;
            this.queue = queue;
            this.firstOffset = firstOffset;
            this.expected = expected;
        }

        @Override
        void work() throws InterruptedException {
            long[] nextSequence = new long[settings.workers()];
            long[] next = {firstOffset};
            String[] problem = new String[1];
            long seen = 0;
            long lastProgress = System.nanoTime();
            // In place, as a consumer that wants throughput reads: no copy, no allocation per record.
            RecordHandler verify = record -> {
                if (problem[0] == null) {
                    problem[0] = check(record, next[0], nextSequence);
                    next[0] = record.offset() + 1;
                }
            };
            while (seen < expected && !aborted()) {
                long before = next[0];
                queue.poll(before, POLL_RECORDS, POLL_WAIT, verify);
                if (problem[0] != null) {
                    failVerification(queue.name() + ": " + problem[0]);
                    return;
                }
                long got = next[0] - before;
                if (got == 0) {
                    if (producersDone && System.nanoTime() - lastProgress > STALL_NANOS) {
                        failVerification("consumer of " + queue.name() + " saw nothing new for "
                                + TimeUnit.NANOSECONDS.toSeconds(STALL_NANOS) + " s at offset " + next[0] + ", after "
                                + seen + " of " + expected + " records");
                        return;
                    }
                    continue;
                }
                seen += got;
                consumed.add(got);
                lastProgress = System.nanoTime();
            }
            if (seen > expected) {
                failVerification(queue.name() + ": consumed " + seen + " records, expected " + expected);
            }
        }

        /** Why {@code record} is not the one expected next, or {@code null} if it is. */
        private String check(RecordView record, long expectedOffset, long[] nextSequence) {
            if (record.offset() != expectedOffset) {
                return "expected offset " + expectedOffset + ", got " + record.offset();
            }
            ByteBuffer payload = record.payload();
            if (payload == null || payload.remaining() != settings.messageSize()) {
                return "record " + record.offset() + " has " + (payload == null ? "no" : payload.remaining()
                        + " bytes of") + " payload, expected " + settings.messageSize();
            }
            int worker = BenchPayload.worker(payload);
            if (worker < 0 || worker >= settings.workers() || worker % settings.queues() != queueIndex) {
                return "record " + record.offset() + " names worker " + worker + ", which does not write here";
            }
            long sequence = BenchPayload.sequence(payload);
            if (sequence != nextSequence[worker]) {
                return "record " + record.offset() + " is worker " + worker + "'s #" + sequence + ", expected #"
                        + nextSequence[worker] + (sequence < nextSequence[worker] ? " (duplicate)" : " (gap or reorder)");
            }
            nextSequence[worker]++;
            return null;
        }
    }
}
