package io.mikyu.engine.security;

import java.util.Locale;

/**
 * What a role may do with the queues its patterns match (see {@code docs/security.md} for which calls need
 * which).
 */
public enum Permission {
    /** Write: append to a log queue, enqueue to a task queue, the same inside a transaction. */
    PRODUCE,
    /** Read and settle: read, poll, consumer groups, shared groups, dequeue, ack, nack, extend, browse. */
    CONSUME,
    /** Administer: create (also through getOrCreate of a missing queue), delete, purge, compact, retention. */
    MANAGE;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
