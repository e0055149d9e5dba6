package io.mikyu.engine.internal.store;

import io.mikyu.engine.TaskQueue;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * What keeps the store's creates and deletes apart. Creates of one name run one at a time (a task queue's
 * dead-letter queue's name counts as its queue's), creates of different names at once, so that they share the
 * fsyncs that publish their folders; a delete, which may reach into other queues (a log queue's shared groups'
 * dead-letter queues are task queues), runs alone, and so does the store's close.
 */
final class CatalogLocks {

    /** Name locks, by hash: two names may share one, which only makes their creates wait for each other. */
    private static final int STRIPES = 64;

    private final ReentrantReadWriteLock catalog = new ReentrantReadWriteLock();
    private final Object[] names = new Object[STRIPES];

    CatalogLocks() {
        for (int i = 0; i < STRIPES; i++) {
            names[i] = new Object();
        }
    }

    /** Runs a create (or find-or-create) of a task queue, alongside creates of other names. */
    <T> T creatingTask(String name, Supplier<T> create) {
        String owner = name.endsWith(TaskQueue.DEAD_LETTER_SUFFIX)
                ? name.substring(0, name.length() - TaskQueue.DEAD_LETTER_SUFFIX.length()) : name;
        return creating("task/" + owner, create);
    }

    /** Runs a create (or find-or-create) of a log queue, alongside creates of other names. */
    <T> T creatingLog(String name, Supplier<T> create) {
        return creating("log/" + name, create);
    }

    private <T> T creating(String key, Supplier<T> create) {
        catalog.readLock().lock();
        try {
            synchronized (names[Math.floorMod(key.hashCode(), STRIPES)]) {
                return create.get();
            }
        } finally {
            catalog.readLock().unlock();
        }
    }

    /** Runs {@code action} once no create runs, and keeps creates out until it is done (a delete, the close). */
    <T> T alone(Supplier<T> action) {
        catalog.writeLock().lock();
        try {
            return action.get();
        } finally {
            catalog.writeLock().unlock();
        }
    }
}
