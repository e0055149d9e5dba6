package io.mikyu.bench.jms;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The workloads, by the names the results are published under. Each one fixes the destination, the clients, the
 * delivery mode, the session and the durability both providers run it at: {@link Durability#SYNC} is a send that
 * returns once its message is on disk (Artemis: journal sync on, its default; mikyu: {@code durability=sync}),
 * {@link Durability#ASYNC} one that returns once written to the OS (journal sync off; {@code durability=async}).
 */
enum Case {
    Q_PERSIST_SYNC_4P4C(Destination.QUEUE, 4, 4, true, Durability.SYNC, 0, 0),
    Q_PERSIST_ASYNC_4P4C(Destination.QUEUE, 4, 4, true, Durability.ASYNC, 0, 0),
    Q_PERSIST_ASYNC_1P1C(Destination.QUEUE, 1, 1, true, Durability.ASYNC, 0, 0),
    // non-persistent messages never reach a disk; the durability only names the URL and journal settings
    Q_NONPERSIST_4P4C(Destination.QUEUE, 4, 4, false, Durability.ASYNC, 0, 0),
    T_NONPERSIST_1P2S(Destination.TOPIC, 1, 2, false, Durability.ASYNC, 0, 0),
    Q_PERSIST_TX64_4P4C(Destination.QUEUE, 4, 4, true, Durability.SYNC, 64, 0),
    Q_PERSIST_ASYNC_RATE3K_1P1C(Destination.QUEUE, 1, 1, true, Durability.ASYNC, 0, 3_000),
    // a backlog: --messages produced with nobody consuming, then drained (BacklogRun), not a measured window
    Q_BACKLOG_PERSIST_ASYNC_4P4C(Destination.QUEUE, 4, 4, true, Durability.ASYNC, 0, 0),
    // large messages (run with --size 100MiB): one a second, latency = the round trip of one whole body
    Q_LARGE_SYNC_RATE1_1P1C(Destination.QUEUE, 1, 1, true, Durability.SYNC, 0, 1),
    // message groups: each producer's messages spread over 250 JMSXGroupIDs of its own, 1,000 in all
    Q_GROUPS1000_PERSIST_ASYNC_4P4C(Destination.QUEUE, 4, 4, true, Durability.ASYNC, 0, 0);

    enum Destination { QUEUE, TOPIC }

    enum Durability {
        SYNC, ASYNC;

        /** As the JNDI files' {@code ${durability}} placeholder spells it. */
        String urlValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    final Destination destination;
    final int producers;
    /** Queue: competing consumers; topic: non-durable subscribers, each of which gets every message. */
    final int consumers;
    final boolean persistent;
    final Durability durability;
    /** Messages per transaction on both sides (transacted sessions); 0: AUTO_ACKNOWLEDGE, no transaction. */
    final int transactionBatch;
    /** Messages per second each producer sends at, latency taken from the scheduled send time; 0: as fast as it can. */
    final int ratePerProducer;

    Case(Destination destination, int producers, int consumers, boolean persistent, Durability durability,
         int transactionBatch, int ratePerProducer) {
        this.destination = destination;
        this.producers = producers;
        this.consumers = consumers;
        this.persistent = persistent;
        this.durability = durability;
        this.transactionBatch = transactionBatch;
        this.ratePerProducer = ratePerProducer;
    }

    /** The published name, e.g. {@code q_persist_sync_4p4c}. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Produce first, consume after: {@link BacklogRun} instead of {@link Run}. */
    boolean backlog() {
        return this == Q_BACKLOG_PERSIST_ASYNC_4P4C;
    }

    /** JMSXGroupIDs across all producers (each its own share); 0: messages carry none. */
    int groups() {
        return this == Q_GROUPS1000_PERSIST_ASYNC_4P4C ? 1_000 : 0;
    }

    boolean transacted() {
        return transactionBatch > 0;
    }

    /** Messages the consumers must receive for {@code sent} committed sends. */
    long expectedFor(long sent) {
        return destination == Destination.TOPIC ? sent * consumers : sent;
    }

    static Case byLabel(String label) {
        for (Case c : values()) {
            if (c.label().equals(label)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown case '" + label + "'; cases: " + labels());
    }

    static String labels() {
        return Arrays.stream(values()).map(Case::label).collect(Collectors.joining(" "));
    }

    String describe() {
        return String.format("%s, %d producer(s), %d %s, %s, %s%s%s", destination.name().toLowerCase(Locale.ROOT),
                producers, consumers,
                destination == Destination.TOPIC ? "subscriber(s)" : "consumer(s)",
                persistent ? "persistent" : "non-persistent", "durability " + durability.urlValue(),
                transacted() ? ", transacted batches of " + transactionBatch : "",
                ratePerProducer > 0 ? ", " + ratePerProducer + " msgs/s per producer" : "");
    }
}
