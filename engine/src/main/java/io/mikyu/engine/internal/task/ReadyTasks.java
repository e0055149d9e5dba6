package io.mikyu.engine.internal.task;

import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.TreeSet;

/**
 * The ready tasks of a queue in delivery order: higher priority first, lower id first within a priority.
 *
 * <p>A tree over all ready tasks costs a dozen comparisons for every enqueue and every dequeue, which showed as
 * the largest single cost of a busy task queue. But tasks become ready in id order almost always (they are
 * enqueued in log order), so each priority keeps them in an intrusive linked list, appended and polled in O(1)
 * and unlinked in O(1). Only a task that comes back out of order (nacked, its lease expired, returned) goes to a
 * small per-priority tree; the first task of a priority is the lower-id head of the two.
 * Guarded by the queue's lock.
 */
final class ReadyTasks implements Iterable<TaskEntry> {

    private static final Comparator<TaskEntry> BY_ID = Comparator.comparingLong(e -> e.id);
    private static final int LEVELS = 10;

    private static final class Level extends TaskList {
        /** Tasks that became ready after a higher id of the same priority did. */
        TreeSet<TaskEntry> outOfOrder;

        TaskEntry first() {
            TaskEntry t = outOfOrder == null || outOfOrder.isEmpty() ? null : outOfOrder.first();
            if (t == null) {
                return head;
            }
            return head == null || t.id < head.id ? t : head;
        }
    }

    private final Level[] levels = new Level[LEVELS];
    private int size;

    ReadyTasks() {
        for (int i = 0; i < LEVELS; i++) {
            levels[i] = new Level();
        }
    }

    void add(TaskEntry e) {
        Level level = levels[e.priority];
        if (level.tail == null || e.id > level.tail.id) {
            level.append(e);
        } else {
            if (level.outOfOrder == null) {
                level.outOfOrder = new TreeSet<>(BY_ID);
            }
            level.outOfOrder.add(e);
            e.outOfOrder = true;
        }
        size++;
    }

    /** Removes {@code e}, which must be in this set. */
    void remove(TaskEntry e) {
        Level level = levels[e.priority];
        if (e.outOfOrder) {
            level.outOfOrder.remove(e);
            e.outOfOrder = false;
        } else {
            level.unlink(e);
        }
        size--;
    }

    /** The first task in delivery order, or {@code null}. */
    TaskEntry first() {
        for (int p = LEVELS - 1; p >= 0; p--) {
            TaskEntry e = levels[p].first();
            if (e != null) {
                return e;
            }
        }
        return null;
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

    void clear() {
        for (Level level : levels) {
            for (TaskEntry e = level.head; e != null; ) {
                TaskEntry next = e.next;
                e.prev = null;
                e.next = null;
                e = next;
            }
            level.head = null;
            level.tail = null;
            if (level.outOfOrder != null) {
                level.outOfOrder.forEach(e -> e.outOfOrder = false);
                level.outOfOrder.clear();
            }
        }
        size = 0;
    }

    /** Delivery order. The set must not change while iterating. */
    @Override
    public Iterator<TaskEntry> iterator() {
        return new Iterator<>() {
            int priority = LEVELS - 1;
            TaskEntry inList = levels[priority].head;
            Iterator<TaskEntry> inTree = treeOf(priority);
            TaskEntry treeNext = advance(inTree);

            @Override
            public boolean hasNext() {
                while (inList == null && treeNext == null) {
                    if (--priority < 0) {
                        return false;
                    }
                    inList = levels[priority].head;
                    inTree = treeOf(priority);
                    treeNext = advance(inTree);
                }
                return true;
            }

            @Override
            public TaskEntry next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                TaskEntry out;
                if (treeNext != null && (inList == null || treeNext.id < inList.id)) {
                    out = treeNext;
                    treeNext = advance(inTree);
                } else {
                    out = inList;
                    inList = inList.next;
                }
                return out;
            }
        };
    }

    private Iterator<TaskEntry> treeOf(int priority) {
        TreeSet<TaskEntry> t = levels[priority].outOfOrder;
        return t == null ? null : t.iterator();
    }

    private static TaskEntry advance(Iterator<TaskEntry> it) {
        return it != null && it.hasNext() ? it.next() : null;
    }
}
