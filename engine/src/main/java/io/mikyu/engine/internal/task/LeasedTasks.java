package io.mikyu.engine.internal.task;

import java.util.Map;
import java.util.TreeMap;

/**
 * The leased tasks of a queue by the end of their lease, earliest first.
 *
 * <p>Tasks leased by one dequeue share one end, so they share one bucket: an intrusive linked list keyed by that
 * end in a tree. Leasing or acking a batch costs one tree lookup for the batch instead of a tree insert or
 * delete per task (see {@link ReadyTasks} for why that matters). Guarded by the queue's lock.
 */
final class LeasedTasks {

    static final class Bucket extends TaskList {
        final long end;

        Bucket(long end) {
            this.end = end;
        }
    }

    private final TreeMap<Long, Bucket> byEnd = new TreeMap<>();
    /** The bucket the last add went to: the next add is usually for the same dequeue. */
    private Bucket last;
    private int size;

    /** Adds {@code e}, keyed by its current {@code leaseUntil} (which must not change until it is removed). */
    void add(TaskEntry e) {
        Bucket b = last != null && last.end == e.leaseUntil && last.head != null ? last : null;
        if (b == null) {
            b = byEnd.computeIfAbsent(e.leaseUntil, Bucket::new);
            last = b;
        }
        b.append(e);
        e.bucket = b;
        size++;
    }

    /** Removes {@code e} if it is in this set. */
    void remove(TaskEntry e) {
        Bucket b = e.bucket;
        if (b == null) {
            return;
        }
        b.unlink(e);
        e.bucket = null;
        size--;
        if (b.head == null) {
            byEnd.remove(b.end, b);
            if (last == b) {
                last = null;
            }
        }
    }

    /** The task whose lease ends first, or {@code null}. */
    TaskEntry first() {
        Map.Entry<Long, Bucket> first = byEnd.firstEntry();
        return first == null ? null : first.getValue().head;
    }

    TaskEntry pollFirst() {
        TaskEntry e = first();
        if (e != null) {
            remove(e);
        }
        return e;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }
}
