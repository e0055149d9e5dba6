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
import java.util.Arrays;
import java.util.List;

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

    public DestinationsBench(int queues, int topics) {
        if (queues < 0 || topics < 0) {
            throw new IllegalArgumentException("--queues and --topics must not be negative");
        }
        if (queues + topics == 0) {
            throw new IllegalArgumentException("nothing to measure: --queues and --topics are both 0");
        }
        this.queues = queues;
        this.topics = topics;
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

    /** Creates every destination (or finds it, in a store that has them); returns the milliseconds taken. */
    public double create(Mikyu store) {
        long start = System.nanoTime();
        for (int i = 0; i < queues; i++) {
            store.getOrCreateTaskQueue(queueName(i), TaskQueueConfig.defaults());
        }
        for (int i = 0; i < topics; i++) {
            store.getOrCreateLog(topicName(i), LogQueueConfig.defaults()).group(SUBSCRIPTION);
        }
        return millisSince(start);
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
