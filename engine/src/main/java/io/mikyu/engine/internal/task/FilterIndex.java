package io.mikyu.engine.internal.task;

import io.mikyu.engine.TaskFilter;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;

/**
 * For each filter in use, the ready tasks that match it, in delivery order. A new filter costs one pass over the
 * ready tasks; after that each task is tested once when it becomes ready, and a filtered dequeue takes the first
 * entry of its set instead of scanning the queue. Filters unused for {@link #IDLE_MILLIS} are dropped.
 * Guarded by the queue's lock.
 */
final class FilterIndex {

    static final long IDLE_MILLIS = 60_000;

    private static final class Matches {
        final TreeSet<TaskEntry> entries = new TreeSet<>(TaskEntry.DELIVERY_ORDER);
        /** Per priority, the id up to which cold tasks were tested against the filter (see ColdBacklog). */
        final long[] coldTested = new long[ColdBacklog.LEVELS];
        long lastUsed;
    }

    private final Map<TaskFilter, Matches> byFilter = new HashMap<>();

    /** The ready tasks matching {@code filter}, building the set from {@code ready} on first use. */
    TreeSet<TaskEntry> matches(TaskFilter filter, Iterable<TaskEntry> ready, long now) {
        Matches m = byFilter.get(filter);
        if (m == null) {
            m = new Matches();
            for (TaskEntry e : ready) {
                if (test(filter, e)) {
                    m.entries.add(e);
                }
            }
            byFilter.put(filter, m);
        }
        m.lastUsed = now;
        return m.entries;
    }

    /** How far {@code filter} has tested the cold backlog, per priority (its set must exist: {@link #matches}). */
    long[] coldTested(TaskFilter filter) {
        return byFilter.get(filter).coldTested;
    }

    void becameReady(TaskEntry e) {
        for (Map.Entry<TaskFilter, Matches> f : byFilter.entrySet()) {
            if (test(f.getKey(), e)) {
                f.getValue().entries.add(e);
            }
        }
    }

    void leftReady(TaskEntry e) {
        for (Matches m : byFilter.values()) {
            m.entries.remove(e);
        }
    }

    void clear() {
        for (Matches m : byFilter.values()) {
            m.entries.clear();
        }
    }

    void dropIdle(long now) {
        Iterator<Matches> it = byFilter.values().iterator();
        while (it.hasNext()) {
            if (now - it.next().lastUsed > IDLE_MILLIS) {
                it.remove();
            }
        }
    }

    int size() {
        return byFilter.size();
    }

    /** A filter that throws matches nothing: one bad filter must not break the queue for everyone. */
    static boolean test(TaskFilter filter, io.mikyu.engine.TaskView e) {
        try {
            return filter.matches(e);
        } catch (RuntimeException ex) {
            return false;
        }
    }
}
