package io.mikyu.engine;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A consumer of task queues that message groups are assigned to. A task whose {@link #GROUP} header names a group
 * goes to one member of the queue at a time, in id order: the first member to take a task of an unowned group owns
 * it (new groups go to the member that owns the fewest), and keeps it until it {@link #close closes} or a task with
 * {@link #GROUP_SEQ} {@code -1} is finished, and its leases of the group's tasks have ended. A task of a group is
 * not handed out while an earlier one is returning (nacked or lease ended); other groups and ungrouped tasks are
 * not held up by it. Ownership is kept in memory only: after a restart a group goes to whoever takes it first.
 *
 * <p>A member takes by passing {@link #take(TaskFilter)} as the filter of {@link TaskQueue#dequeue}; a dequeue
 * without a member ignores groups. Identity is the object: one per consumer. Thread-safe.
 */
public final class GroupMember implements AutoCloseable {

    /** The header naming a task's group (JMS {@code JMSXGroupID}). */
    public static final String GROUP = "mikyu.group";
    /** The header holding a task's sequence number in its group (JMS {@code JMSXGroupSeq}); -1 closes the group. */
    public static final String GROUP_SEQ = "mikyu.group.seq";

    private final String name;
    private volatile boolean closed;
    private final List<Runnable> closeListeners = new CopyOnWriteArrayList<>();

    /** {@code name}: what logs and errors call this member (a consumer's id); not needed to be unique. */
    public GroupMember(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /** The filter to dequeue with as this member: {@code filter} (null: every task) plus this member's groups. */
    public TaskFilter take(TaskFilter filter) {
        return new Take(this, filter);
    }

    /** This member's groups go free once its leases of their tasks end; from now on it claims no group. */
    @Override
    public void close() {
        closed = true;
        for (Runnable r : closeListeners) {
            r.run();
        }
    }

    public boolean isClosed() {
        return closed;
    }

    /** For the queues this member takes from: {@code r} runs once when it closes (at once if it has). */
    public void onClose(Runnable r) {
        closeListeners.add(r);
        if (closed && closeListeners.remove(r)) {
            r.run();
        }
    }

    /** The filter a take by {@code member} carries, or {@code filter} itself if it is no member's. */
    public static TaskFilter unwrap(TaskFilter filter) {
        return filter instanceof Take t ? t.filter() : filter;
    }

    @Override
    public String toString() {
        return "group member " + name;
    }

    /**
     * A take by {@code member} with {@code filter} (null: every task). Matches as its filter does; a queue that
     * knows groups reads the member from it.
     */
    public record Take(GroupMember member, TaskFilter filter) implements TaskFilter {
        public Take {
            Objects.requireNonNull(member, "member");
        }

        @Override
        public boolean matches(TaskView task) {
            return filter == null || filter.matches(task);
        }

        @Override
        public FilterExpression expression() {
            return filter == null ? null : filter.expression();
        }
    }
}
