package io.mikyu.engine;

/** How a {@link Claim} on a name is held. */
public enum ClaimMode {
    /** One holder at a time: a JMS client ID, the consumer of an unshared durable subscription. */
    EXCLUSIVE,
    /** Any number of holders, counted: the consumers of a shared subscription. */
    SHARED
}
