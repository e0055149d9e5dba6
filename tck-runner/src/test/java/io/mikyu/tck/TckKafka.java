package io.mikyu.tck;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Queue;

import java.lang.reflect.InvocationTargetException;

/**
 * Kafka mode ({@code -Dtck.mode=kafka}): the in-JVM Kafka cluster of the kafka module's tests
 * ({@code io.mikyu.kafka.support.KafkaTestCluster}: 3 brokers, 1 controller), started before the first test and
 * stopped when the run ends. Called by reflection: the kafka module's test jar and Kafka's test kit are on the class
 * path with the profile {@code tck-kafka} only, and the other modes compile without them.
 */
final class TckKafka {

    private static final String CLUSTER = "io.mikyu.kafka.support.KafkaTestCluster";
    private static final long WARM_UP_MS = 300_000;

    private TckKafka() {
    }

    /** The cluster's bootstrap list, {@code host:port,...}; started at the first call. */
    static String bootstrapServers() {
        Object kit = call("get");
        try {
            return (String) kit.getClass().getMethod("bootstrapServers").invoke(kit);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the in-JVM Kafka cluster's bootstrap servers", e);
        }
    }

    /**
     * One message through a JMS queue on a store of its own (prefix {@code tck-warmup}), before the first test: the
     * cluster's first share group, transaction and group offsets create its internal topics, which took longer than
     * the TCK's {@code jms_timeout} on a loaded machine and failed whichever test came first.
     */
    static void warmUp() {
        long start = System.nanoTime();
        try (JMSContext context = new MikyuConnectionFactory("kafka://" + bootstrapServers()
                + "?prefix=tck-warmup&clientName=tck-warmup").createContext()) {
            Queue queue = context.createQueue("warmup");
            context.createProducer().send(queue, "warm-up");
            try (JMSConsumer consumer = context.createConsumer(queue)) {
                if (consumer.receiveBody(String.class, WARM_UP_MS) == null) {
                    throw new IllegalStateException("the in-JVM Kafka cluster delivered no message within "
                            + WARM_UP_MS + " ms");
                }
            }
        } catch (JMSRuntimeException e) {
            throw new IllegalStateException("the in-JVM Kafka cluster's warm-up failed", e);
        }
        System.out.println("TCK: the Kafka cluster delivered its first queue message in "
                + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    static void stop() {
        try {
            call("stop");
        } catch (RuntimeException e) {
            System.err.println("TCK: the in-JVM Kafka cluster did not stop cleanly: " + e);
        }
    }

    private static Object call(String method) {
        try {
            return Class.forName(CLUSTER).getMethod(method).invoke(null);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("kafka mode needs the kafka module's test jar on the class path: run with"
                    + " -Ptck -Dtck.mode=kafka (the profile tck-kafka adds it)", e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("the in-JVM Kafka cluster failed (" + method + ")", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call " + CLUSTER + "." + method, e);
        }
    }
}
