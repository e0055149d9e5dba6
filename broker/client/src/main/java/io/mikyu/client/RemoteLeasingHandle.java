package io.mikyu.client;

import io.mikyu.engine.Durability;
import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.TaskCounts;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A handle on what a broker hands out under leases: a task queue ({@code T} a leased task) or a shared group of a
 * log queue ({@code T} a delivery). Both take items from a consumer stream or by asking, and settle them by token;
 * only the requests' ops and names differ ({@link LeaseOps}).
 *
 * @param <T> an item handed out under a lease
 */
abstract class RemoteLeasingHandle<T> extends RemoteHandle {

    /**
     * The requests of one kind of leasing handle. {@code filtered}: a take names its filter (a task queue's takes
     * do; a shared group's filter was given when it was opened).
     */
    record LeaseOps(Op take, Op stream, Op ack, Op ackDurable, Op nack, Op returnUndelivered, Op extend, Op counts,
                    boolean filtered) {

        static final LeaseOps TASK_QUEUE = new LeaseOps(Op.DEQUEUE, Op.STREAM_TASKS, Op.TASK_ACK,
                Op.TASK_ACK_DURABLE, Op.TASK_NACK, Op.TASK_RETURN_UNDELIVERED, Op.TASK_EXTEND, Op.TASK_COUNTS, true);
        static final LeaseOps SHARED_GROUP = new LeaseOps(Op.SHARED_FETCH, Op.STREAM_SHARED, Op.SHARED_ACK,
                Op.SHARED_ACK_DURABLE, Op.SHARED_NACK, Op.SHARED_RETURN_UNDELIVERED, Op.SHARED_EXTEND,
                Op.SHARED_COUNTS, false);
    }

    private final LeaseOps ops;
    /** The queue and the group ({@code null} for a task queue) a stream of this handle serves. */
    private final String queue;
    private final String group;
    private final Function<ByteBuf, T> itemReader;
    private final int itemMinBytes;
    private final Function<T, LeaseToken> tokenOf;

    RemoteLeasingHandle(BrokerChannel channel, String name, LeaseOps ops, String queue, String group,
                        Function<ByteBuf, T> itemReader, int itemMinBytes, Function<T, LeaseToken> tokenOf) {
        super(channel, name);
        this.ops = ops;
        this.queue = queue;
        this.group = group;
        this.itemReader = itemReader;
        this.itemMinBytes = itemMinBytes;
        this.tokenOf = tokenOf;
    }

    /**
     * With consumer streams, a take that may wait takes from the stream of this handle, filter and lease (opened by
     * the first such call), waiting up to {@code wait} for the broker to push; one that may not wait takes what
     * the stream holds, else asks the broker as without streams. Either way: up to {@code max} items, each under a
     * lease of {@code lease} or more (see {@code docs/protocol.md}, consumer streams), filtered on the broker.
     *
     * <p>Without streams: {@code names max:i32 lease:millis wait:millis [filter]} → leased items.
     */
    List<T> take(int max, Duration lease, Duration wait, FilterExpression filter) throws InterruptedException {
        return take(max, lease, wait, filter, null);
    }

    /** As {@link #take}; a message-group {@code member} takes from a stream of its own (its groups are the stream's). */
    List<T> take(int max, Duration lease, Duration wait, FilterExpression filter, Object member)
            throws InterruptedException {
        if (max > 0 && lease != null && lease.toMillis() > 0 && channel.streams()) {
            ClientStream.Key key = new ClientStream.Key(ops.stream(), queue, group, filter, lease.toMillis(), member);
            if (wait != null && wait.toMillis() > 0) {
                long deadline = ClientStream.deadlineAfter(wait);
                while (true) {
                    ClientStream<T> stream = channel.streamRegistry().stream(key, this::newStream);
                    List<T> got = stream.take(max, deadline);
                    if (got != null) {
                        return noteGroups(stream, member, got);
                    }
                }
            }
            ClientStream<T> open = channel.streamRegistry().existing(key);
            List<T> got = open == null ? null : open.takeNow(max);
            if (got != null && !got.isEmpty()) {
                return noteGroups(open, member, got);
            }
        }
        return callList(ops.take(), b -> {
            b.writeInt(max);
            Fields.writeMillis(b, lease);
            Fields.writeMillis(b, wait);
            if (ops.filtered()) {
                Values.writeFilter(b, filter);
            }
        }, itemReader, itemMinBytes, wait == null ? Duration.ZERO : wait);
    }

    /** Marks {@code stream} if its {@code member} took a grouped item ({@link ClientStream#holdsGroups()}). */
    private List<T> noteGroups(ClientStream<T> stream, Object member, List<T> got) {
        if (member != null) {
            for (T item : got) {
                if (grouped(item)) {
                    stream.tookGroupedItem();
                    break;
                }
            }
        }
        return got;
    }

    /** Whether {@code item} belongs to a message group; none does unless the handle says so. */
    boolean grouped(T item) {
        return false;
    }

    /** {@code names stream:i32 lease:millis [filter] credit:i32 creditBytes:i64} → empty */
    private ClientStream<T> newStream(ClientStream.Key key) {
        ClientOptions options = channel.options();
        return new ClientStream<>(channel, key, (b, stream) -> {
            writeNames(b);
            b.writeInt(stream);
            b.writeLong(key.leaseMillis());
            if (ops.filtered()) {
                Values.writeFilter(b, key.filter());
            }
            b.writeInt(options.streamCredit());
            b.writeLong(options.streamCreditBytes());
        }, itemReader, itemMinBytes, ops.returnUndelivered(), (b, tokens) -> {
            writeNames(b);
            Values.writeTokens(b, tokens);
        }, tokenOf);
    }

    public void ack(LeaseToken token) {
        ack(List.of(Objects.requireNonNull(token, "token")));
    }

    public void ack(List<LeaseToken> tokens) {
        call(ops.ack(), b -> Values.writeTokens(b, tokens), b -> null);
    }

    /** {@code names list<token> durability} → empty; a broker without feature DURABLE_ACKS acks as configured. */
    public void ack(List<LeaseToken> tokens, Durability durability) {
        Objects.requireNonNull(durability, "durability");
        if (!channel.durableAcks()) {
            ack(tokens);
            return;
        }
        call(ops.ackDurable(), b -> {
            Values.writeTokens(b, tokens);
            Values.writeDurability(b, durability);
        }, b -> null);
    }

    public void nack(LeaseToken token, Duration delay, String reason) {
        Objects.requireNonNull(token, "token");
        call(ops.nack(), b -> {
            Values.writeToken(b, token);
            Fields.writeMillis(b, delay);
            Fields.writeString(b, reason);
        }, b -> null);
    }

    /**
     * {@code names list<token>} → empty. A consumer giving back its prefetch is closing: the idle streams of the
     * queue close too, so what they buffered is ready again at once, as in-process.
     */
    public void returnUndelivered(List<LeaseToken> tokens) {
        Objects.requireNonNull(tokens, "tokens");
        channel.streamRegistry().closeIdle(queue, 0, true);
        if (tokens.isEmpty()) {
            return;
        }
        call(ops.returnUndelivered(), b -> Values.writeTokens(b, tokens), b -> null);
    }

    public long extend(LeaseToken token, Duration lease) {
        Objects.requireNonNull(token, "token");
        return call(ops.extend(), b -> {
            Values.writeToken(b, token);
            Fields.writeMillis(b, lease);
        }, Fields::readLong);
    }

    public TaskCounts counts() {
        return call(ops.counts(), Values::readCounts);
    }
}
