package io.mikyu.client;

import io.mikyu.engine.Durability;
import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.GroupMember;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.spi.TransientWrites;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** A task queue on a broker. Every request names the queue; the handle holds its name and settings. */
final class RemoteTaskQueue extends RemoteLeasingHandle<LeasedTask> implements TaskQueue, TransientWrites {

    private static final int LEASED_TASK_MIN_BYTES = 8 + 1 + 4 + 1 + 8 + 8 + 8 + 4 + 4;

    private final RemoteMikyu store;
    private final TaskQueueConfig config;

    RemoteTaskQueue(RemoteMikyu store, BrokerChannel channel, String name, TaskQueueConfig config) {
        super(channel, name, LeaseOps.TASK_QUEUE, name, null, Values::readLeasedTask, LEASED_TASK_MIN_BYTES,
                LeasedTask::token);
        this.store = store;
        this.config = config;
    }

    /** {@code queue:string} */
    @Override
    void writeNames(ByteBuf b) {
        Fields.writeString(b, name());
    }

    /**
     * The text form of a filter, for the broker to compile and evaluate next to the data. A filter without one
     * (a lambda) cannot leave this process.
     */
    static FilterExpression expressionOf(TaskFilter filter) {
        if (filter == null) {
            return null;
        }
        FilterExpression expression = filter.expression();
        if (expression == null) {
            throw new IllegalArgumentException("filter " + filter.getClass().getName() + " has no expression, so a"
                    + " broker cannot evaluate it: use a filter with TaskFilter.expression(), such as HeaderEquals"
                    + " or a JMS selector");
        }
        return expression;
    }

    @Override
    public TaskQueueConfig config() {
        return config;
    }

    @Override
    public long enqueue(Task task, Durability durability) {
        return enqueueBatch(List.of(Objects.requireNonNull(task, "task")), durability);
    }

    /** {@code queue:string durability tasks} → {@code firstId:i64} */
    @Override
    public long enqueueBatch(List<Task> tasks, Durability durability) {
        Objects.requireNonNull(durability, "durability");
        return call(Op.ENQUEUE, b -> {
            Values.writeDurability(b, durability);
            Values.writeTasks(b, tasks);
        }, Fields::readLong);
    }

    /**
     * {@code queue:string tasks} → {@code firstId:i64}: held in the broker's memory, under its transient-memory
     * limit (a refusal is a {@link io.mikyu.engine.MemoryLimitException}); a broker without feature TRANSIENT_TASKS
     * stores them with {@code ASYNC} durability.
     */
    @Override
    public long enqueueTransient(List<Task> tasks) {
        return enqueueTransient(tasks, true);
    }

    /** Where the broker would wait for memory, it answers {@link #MEMORY_FULL} instead. */
    @Override
    public long enqueueTransientUnlessFull(List<Task> tasks) {
        return enqueueTransient(tasks, false);
    }

    /** Made by a broker's event loop only; a client has no such call to save. */
    @Override
    public long tryEnqueueTransient(List<Task> tasks) {
        return MEMORY_FULL;
    }

    /** {@code queue:string mayWait:bool tasks} → {@code firstId:i64}, or {@link #MEMORY_FULL} */
    private long enqueueTransient(List<Task> tasks, boolean mayWait) {
        if (!channel.transientTasks()) {
            return enqueueBatch(tasks, Durability.ASYNC);
        }
        return call(Op.ENQUEUE_TRANSIENT, b -> {
            Fields.writeBool(b, mayWait);
            Values.writeTasks(b, tasks);
        }, Fields::readLong);
    }

    /** Taken as {@link RemoteLeasingHandle#take} says; the filter is evaluated on the broker. */
    @Override
    public List<LeasedTask> dequeue(int max, Duration lease, Duration wait, TaskFilter filter)
            throws InterruptedException {
        if (filter instanceof GroupMember.Take t) {
            // The broker makes each consumer stream a group member: this member gets a stream of its own.
            GroupMember member = t.member();
            if (groupMembers.putIfAbsent(member, Boolean.TRUE) == null) {
                member.onClose(() -> {
                    if (groupMembers.remove(member) != null) {
                        channel.streamRegistry().closeIdle(name(), 0, true);
                    }
                });
            }
            return take(max, lease, wait, expressionOf(t.filter()), member);
        }
        return take(max, lease, wait, expressionOf(filter));
    }

    @Override
    boolean grouped(LeasedTask task) {
        return task.headers() != null && task.headers().getString(GroupMember.GROUP) != null;
    }

    /** The message-group members taking from this queue, whose streams close when they do. */
    private final java.util.concurrent.ConcurrentHashMap<GroupMember, Boolean> groupMembers =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** Idle streams of this queue close first, so the tasks they buffered show as ready, as in-process. */
    @Override
    public List<LeasedTask> browse(int max, TaskFilter filter) {
        FilterExpression expression = expressionOf(filter);
        channel.streamRegistry().closeIdle(name(), 0, true);
        return callList(Op.BROWSE, b -> {
            b.writeInt(max);
            Values.writeFilter(b, expression);
        }, Values::readLeasedTask, LEASED_TASK_MIN_BYTES);
    }

    @Override
    public long purge() {
        return call(Op.PURGE, Fields::readLong);
    }

    /** {@code <name>/dlq}, or {@code null} for a dead-letter queue itself, as in-process. */
    @Override
    public TaskQueue deadLetters() {
        return name().endsWith(DEAD_LETTER_SUFFIX) ? null : store.taskQueue(name() + DEAD_LETTER_SUFFIX);
    }

    @Override
    public QueueStats stats() {
        return call(Op.TASK_STATS, Values::readQueueStats);
    }

    @Override
    public String toString() {
        return "RemoteTaskQueue[" + name() + "]";
    }
}
