package io.mikyu.cli.bench;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Many destinations as the JMS provider stores them: {@code queues} task queues (a JMS queue each) and
 * {@code topics} log queues with one consumer group each (a topic with one durable subscription). It creates them,
 * sends one message through each and receives it (dequeue and ack; poll and commit), and checks each message is
 * the one sent. Every phase returns how long it took; the caller measures the process around it.
 */
public final class DestinationsBench {

    /** The consumer group standing for the topic's durable subscription. */
    static final String SUBSCRIPTION = "subscription";
    /** A message that is not there after this long is lost: the bench fails. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final int queues;
    private final int topics;
    /** Threads creating at once, as the tenants of a multi-tenant application would. */
    private final int threads;

    public DestinationsBench(int queues, int topics) {
        this(queues, topics, 1);
    }

    public DestinationsBench(int queues, int topics, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1");
        }
        if (queues < 0 || topics < 0) {
            throw new IllegalArgumentException("--queues and --topics must not be negative");
        }
        if (queues + topics == 0) {
            throw new IllegalArgumentException("nothing to measure: --queues and --topics are both 0");
        }
        this.queues = queues;
        this.topics = topics;
        this.threads = threads;
    }

    public int queues() {
        return queues;
    }

    public int topics() {
        return topics;
    }

    static String queueName(int i) {
        return String.format("dest-q-%05d", i);
    }

    static String topicName(int i) {
        return String.format("dest-t-%05d", i);
    }

    /**
     * Creates every destination (or finds it, in a store that has them); returns the milliseconds taken. With
     * several threads, thread {@code t} creates every {@code threads}-th queue and topic from {@code t} on.
     */
    public double create(Mikyu store) throws InterruptedException {
        long start = System.nanoTime();
        if (threads == 1) {
            createShare(store, 0);
            return millisSince(start);
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> shares = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                shares.add(pool.submit(() -> createShare(store, first)));
            }
            for (Future<?> share : shares) {
                try {
                    share.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return millisSince(start);
    }

    private void createShare(Mikyu store, int first) {
        for (int i = first; i < queues; i += threads) {
            store.getOrCreateTaskQueue(queueName(i), TaskQueueConfig.defaults());
        }
        for (int i = first; i < topics; i += threads) {
            store.getOrCreateLog(topicName(i), LogQueueConfig.defaults()).group(SUBSCRIPTION);
        }
    }

    /**
     * Sends one message {@code round} through every destination and receives it; returns the milliseconds taken.
     *
     * @throws IllegalStateException if a destination gave back nothing or something else than was sent
     */
    public double roundTrip(Mikyu store, int round) throws InterruptedException {
        long start = System.nanoTime();
        for (int i = 0; i < queues; i++) {
            TaskQueue q = store.getOrCreateTaskQueue(queueName(i), TaskQueueConfig.defaults());
            byte[] body = body(queueName(i), round);
            q.enqueue(Task.of(body));
            List<LeasedTask> got = q.dequeue(1, q.config().defaultLease(), WAIT, null);
            if (got.isEmpty() || !Arrays.equals(got.get(0).payload(), body)) {
                throw new IllegalStateException(queueName(i) + ": expected '" + text(body) + "', got "
                        + (got.isEmpty() ? "nothing" : "'" + got.get(0).payloadAsString() + "'"));
            }
            q.ack(got.get(0).token());
        }
        for (int i = 0; i < topics; i++) {
            LogQueue t = store.getOrCreateLog(topicName(i), LogQueueConfig.defaults());
            ConsumerGroup subscription = t.group(SUBSCRIPTION);
            byte[] body = body(topicName(i), round);
            t.append(Entry.of(body));
            List<Record> got = subscription.poll(1, WAIT);
            if (got.isEmpty() || !Arrays.equals(got.get(0).payload(), body)) {
                throw new IllegalStateException(topicName(i) + "/" + SUBSCRIPTION + ": expected '" + text(body)
                        + "', got " + (got.isEmpty() ? "nothing" : "'" + got.get(0).payloadAsString() + "'"));
            }
            subscription.commit(got.get(0).offset() + 1);
        }
        return millisSince(start);
    }

    private static byte[] body(String destination, int round) {
        return (destination + " #" + round).getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }

    static double millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }
}
