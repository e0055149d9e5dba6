package io.mikyu.client;

import io.mikyu.engine.Durability;
import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** A task queue on a broker. Every request names the queue; the handle holds its name and settings. */
final class RemoteTaskQueue implements TaskQueue {

    private static final int LEASED_TASK_MIN_BYTES = 8 + 1 + 4 + 1 + 8 + 8 + 8 + 4 + 4;

    private final RemoteMikyu store;
    private final BrokerChannel channel;
    private final String name;
    private final TaskQueueConfig config;

    RemoteTaskQueue(RemoteMikyu store, BrokerChannel channel, String name, TaskQueueConfig config) {
        this.store = store;
        this.channel = channel;
        this.name = name;
        this.config = config;
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
    public String name() {
        return name;
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
        return channel.call(Op.ENQUEUE, b -> {
            Fields.writeString(b, name);
            Values.writeDurability(b, durability);
            Values.writeTasks(b, tasks);
        }, Fields::readLong);
    }

    /**
     * With consumer streams, a dequeue that may wait takes from the stream of this queue, filter and lease (opened
     * by the first such call), waiting up to {@code wait} for the broker to push; one that may not wait takes what
     * the stream holds, else asks the broker as without streams. Either way: up to {@code max} tasks, each under a
     * lease of {@code lease} or more (see {@code docs/protocol.md}, consumer streams), filtered on the broker.
     *
     * <p>Without streams: {@code queue:string max:i32 lease:millis wait:millis filter} → leased tasks.
     */
    @Override
    public List<LeasedTask> dequeue(int max, Duration lease, Duration wait, TaskFilter filter)
            throws InterruptedException {
        FilterExpression expression = expressionOf(filter);
        if (max > 0 && lease != null && lease.toMillis() > 0 && channel.streams()) {
            ClientStream.Key key = new ClientStream.Key(Op.STREAM_TASKS, name, null, expression, lease.toMillis());
            if (wait != null && wait.toMillis() > 0) {
                long deadline = ClientStream.deadlineAfter(wait);
                while (true) {
                    List<LeasedTask> got = channel.streamRegistry().stream(key, this::newStream).take(max, deadline);
                    if (got != null) {
                        return got;
                    }
                }
            }
            ClientStream<LeasedTask> open = channel.streamRegistry().existing(key);
            List<LeasedTask> got = open == null ? null : open.takeNow(max);
            if (got != null && !got.isEmpty()) {
                return got;
            }
        }
        return channel.callList(Op.DEQUEUE, b -> {
            Fields.writeString(b, name);
            b.writeInt(max);
            Fields.writeMillis(b, lease);
            Fields.writeMillis(b, wait);
            Values.writeFilter(b, expression);
        }, Values::readLeasedTask, LEASED_TASK_MIN_BYTES, wait == null ? Duration.ZERO : wait);
    }

    /** {@code queue stream:i32 lease:millis filter credit:i32 creditBytes:i64} → empty */
    private ClientStream<LeasedTask> newStream(ClientStream.Key key) {
        ClientOptions options = channel.options();
        return new ClientStream<>(channel, key, (b, stream) -> {
            Fields.writeString(b, name);
            b.writeInt(stream);
            b.writeLong(key.leaseMillis());
            Values.writeFilter(b, key.filter());
            b.writeInt(options.streamCredit());
            b.writeLong(options.streamCreditBytes());
        }, Values::readLeasedTask, LEASED_TASK_MIN_BYTES, Op.TASK_RETURN_UNDELIVERED, (b, tokens) -> {
            Fields.writeString(b, name);
            Values.writeTokens(b, tokens);
        }, LeasedTask::token);
    }

    @Override
    public void ack(LeaseToken token) {
        ack(List.of(Objects.requireNonNull(token, "token")));
    }

    @Override
    public void ack(List<LeaseToken> tokens) {
        channel.call(Op.TASK_ACK, b -> {
            Fields.writeString(b, name);
            Values.writeTokens(b, tokens);
        }, b -> null);
    }

    /** {@code queue list<token> durability} → empty; a broker without feature DURABLE_ACKS acks as configured. */
    @Override
    public void ack(List<LeaseToken> tokens, Durability durability) {
        Objects.requireNonNull(durability, "durability");
        if (!channel.durableAcks()) {
            ack(tokens);
            return;
        }
        channel.call(Op.TASK_ACK_DURABLE, b -> {
            Fields.writeString(b, name);
            Values.writeTokens(b, tokens);
            Values.writeDurability(b, durability);
        }, b -> null);
    }

    @Override
    public void nack(LeaseToken token, Duration delay, String reason) {
        Objects.requireNonNull(token, "token");
        channel.call(Op.TASK_NACK, b -> {
            Fields.writeString(b, name);
            Values.writeToken(b, token);
            Fields.writeMillis(b, delay);
            Fields.writeString(b, reason);
        }, b -> null);
    }

    /**
     * {@code queue list<token>} → empty. A consumer giving back its prefetch is closing: the idle streams of this
     * queue close too, so what they buffered is ready again at once, as in-process.
     */
    @Override
    public void returnUndelivered(List<LeaseToken> tokens) {
        Objects.requireNonNull(tokens, "tokens");
        channel.streamRegistry().closeIdle(name, 0, true);
        if (tokens.isEmpty()) {
            return;
        }
        channel.call(Op.TASK_RETURN_UNDELIVERED, b -> {
            Fields.writeString(b, name);
            Values.writeTokens(b, tokens);
        }, b -> null);
    }

    @Override
    public long extend(LeaseToken token, Duration lease) {
        Objects.requireNonNull(token, "token");
        return channel.call(Op.TASK_EXTEND, b -> {
            Fields.writeString(b, name);
            Values.writeToken(b, token);
            Fields.writeMillis(b, lease);
        }, Fields::readLong);
    }

    /** Idle streams of this queue close first, so the tasks they buffered show as ready, as in-process. */
    @Override
    public List<LeasedTask> browse(int max, TaskFilter filter) {
        FilterExpression expression = expressionOf(filter);
        channel.streamRegistry().closeIdle(name, 0, true);
        return channel.callList(Op.BROWSE, b -> {
            Fields.writeString(b, name);
            b.writeInt(max);
            Values.writeFilter(b, expression);
        }, Values::readLeasedTask, LEASED_TASK_MIN_BYTES);
    }

    @Override
    public long purge() {
        return channel.call(Op.PURGE, b -> Fields.writeString(b, name), Fields::readLong);
    }

    @Override
    public TaskCounts counts() {
        return channel.call(Op.TASK_COUNTS, b -> Fields.writeString(b, name), Values::readCounts);
    }

    /** {@code <name>/dlq}, or {@code null} for a dead-letter queue itself, as in-process. */
    @Override
    public TaskQueue deadLetters() {
        return name.endsWith(DEAD_LETTER_SUFFIX) ? null : store.taskQueue(name + DEAD_LETTER_SUFFIX);
    }

    @Override
    public QueueStats stats() {
        return channel.call(Op.TASK_STATS, b -> Fields.writeString(b, name), Values::readQueueStats);
    }

    @Override
    public String toString() {
        return "RemoteTaskQueue[" + name + "]";
    }
}
