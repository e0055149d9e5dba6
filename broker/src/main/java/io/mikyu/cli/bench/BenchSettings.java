package io.mikyu.cli.bench;

import io.mikyu.engine.Durability;

import java.time.Duration;

/**
 * What {@code mikyu bench run} runs, for either kind of queue. Checked on construction; messages name the CLI
 * options.
 *
 * @param consumersPerQueue log queues: tailing consumers that each read every record; task queues: consumers that
 *                          share the queue's tasks. 0 for produce only.
 */
public record BenchSettings(int workers, Durability durability, int messageSize, long totalBytes, int batch,
                            int queues, int consumersPerQueue, Duration warmup) {
    public BenchSettings {
        require(workers >= 1, "--workers must be at least 1");
        require(messageSize >= BenchPayload.HEADER_BYTES,
                "--message-size must be at least " + BenchPayload.HEADER_BYTES + " bytes (the bench's record header)");
        require(batch >= 1, "--batch must be at least 1");
        require(queues >= 1, "--queues must be at least 1");
        require(consumersPerQueue >= 0, "--consumers must not be negative");
        require(!warmup.isNegative(), "--warmup must not be negative");
        require(totalBytes / messageSize >= workers,
                "--bytes must allow at least one message per worker (" + workers + " x --message-size)");
    }

    public long messages() {
        return totalBytes / messageSize;
    }

    /** Messages worker {@code w} produces: an even share, the remainder going to the first workers. */
    long messagesOf(int worker) {
        return messages() / workers + (worker < messages() % workers ? 1 : 0);
    }

    /** Messages the workers of queue {@code q} produce (worker {@code w} writes to queue {@code w % queues}). */
    long messagesOfQueue(int queue) {
        long total = 0;
        for (int w = queue; w < workers; w += queues) {
            total += messagesOf(w);
        }
        return total;
    }

    /** Index of worker {@code w}'s first message among all messages, workers in order. */
    long firstMessageOf(int worker) {
        long first = 0;
        for (int w = 0; w < worker; w++) {
            first += messagesOf(w);
        }
        return first;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
