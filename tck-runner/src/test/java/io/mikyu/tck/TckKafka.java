package io.mikyu.tck;

import java.lang.reflect.InvocationTargetException;

/**
 * Kafka mode ({@code -Dtck.mode=kafka}): the in-JVM Kafka cluster of the kafka module's tests
 * ({@code io.mikyu.kafka.support.KafkaTestCluster}: 3 brokers, 1 controller), started before the first test and
 * stopped when the run ends. Called by reflection: the kafka module's test jar and Kafka's test kit are on the class
 * path with the profile {@code tck-kafka} only, and the other modes compile without them.
 */
final class TckKafka {

    private static final String CLUSTER = "io.mikyu.kafka.support.KafkaTestCluster";

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
