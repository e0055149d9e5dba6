package io.mikyu.kafka.task;

import io.mikyu.kafka.log.KafkaLogQueue;

/**
 * A task queue's high priority band as the store makes it (io.mikyu.kafka.priority.PriorityBands): its topic and
 * share group are made on the queue's first task of priority 5 or more, with the queue's settings, which the store
 * holds.
 */
public interface HighBand {

    String group();

    /** Whether the band's topic exists (another client may have made it). */
    boolean exists();

    /** Whether a store handle of this JVM made or saw the band's topic: known without asking the cluster. */
    boolean seenInThisJvm();

    /** Makes the band's topic and configures its share group; a band that exists is kept. */
    void create();

    /** A handle on the band's topic. */
    KafkaLogQueue open();
}
