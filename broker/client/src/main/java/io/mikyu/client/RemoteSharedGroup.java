package io.mikyu.client;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A shared consumer group on a broker. The broker keeps the group this connection opened ({@link Op#SHARED_OPEN}),
 * with its admission filter, and requests name it by queue and group.
 */
final class RemoteSharedGroup implements SharedGroup {

    private static final int DELIVERY_MIN_BYTES = RemoteLogQueue.RECORD_MIN_BYTES + 16 + 4 + 8;

    private final BrokerChannel channel;
    private final RemoteLogQueue queue;
    private final String name;
    private final SharedGroupConfig config;

    RemoteSharedGroup(BrokerChannel channel, RemoteLogQueue queue, String name, SharedGroupConfig config) {
        this.channel = channel;
        this.queue = queue;
        this.name = name;
        this.config = config;
    }

    private void names(ByteBuf b) {
        Fields.writeString(b, queue.name());
        Fields.writeString(b, name);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String queue() {
        return queue.name();
    }

    @Override
    public SharedGroupConfig config() {
        return config;
    }

    /**
     * With consumer streams, as {@link RemoteTaskQueue#dequeue}: a fetch that may wait takes from the stream of this
     * group and lease; one that may not takes what it holds, else asks the broker.
     *
     * <p>Without streams: {@code queue group max:i32 lease:millis wait:millis} → deliveries.
     */
    @Override
    public List<Delivery> fetch(int max, Duration lease, Duration wait) throws InterruptedException {
        if (max > 0 && lease != null && lease.toMillis() > 0 && channel.streams()) {
            ClientStream.Key key = new ClientStream.Key(Op.STREAM_SHARED, queue.name(), name, null,
                    lease.toMillis());
            if (wait != null && wait.toMillis() > 0) {
                long deadline = ClientStream.deadlineAfter(wait);
                while (true) {
                    List<Delivery> got = channel.streamRegistry().stream(key, this::newStream).take(max, deadline);
                    if (got != null) {
                        return got;
                    }
                }
            }
            ClientStream<Delivery> open = channel.streamRegistry().existing(key);
            List<Delivery> got = open == null ? null : open.takeNow(max);
            if (got != null && !got.isEmpty()) {
                return got;
            }
        }
        return channel.callList(Op.SHARED_FETCH, b -> {
            names(b);
            b.writeInt(max);
            Fields.writeMillis(b, lease);
            Fields.writeMillis(b, wait);
        }, Values::readDelivery, DELIVERY_MIN_BYTES, wait == null ? Duration.ZERO : wait);
    }

    /** {@code queue group stream:i32 lease:millis credit:i32 creditBytes:i64} → empty */
    private ClientStream<Delivery> newStream(ClientStream.Key key) {
        ClientOptions options = channel.options();
        return new ClientStream<>(channel, key, (b, stream) -> {
            names(b);
            b.writeInt(stream);
            b.writeLong(key.leaseMillis());
            b.writeInt(options.streamCredit());
            b.writeLong(options.streamCreditBytes());
        }, Values::readDelivery, DELIVERY_MIN_BYTES, Op.SHARED_RETURN_UNDELIVERED, (b, tokens) -> {
            names(b);
            Values.writeTokens(b, tokens);
        }, Delivery::token);
    }

    @Override
    public void ack(LeaseToken token) {
        ack(List.of(Objects.requireNonNull(token, "token")));
    }

    @Override
    public void ack(List<LeaseToken> tokens) {
        channel.call(Op.SHARED_ACK, b -> {
            names(b);
            Values.writeTokens(b, tokens);
        }, b -> null);
    }

    /** {@code queue group list<token> durability} → empty; a broker without DURABLE_ACKS acks as configured. */
    @Override
    public void ack(List<LeaseToken> tokens, Durability durability) {
        Objects.requireNonNull(durability, "durability");
        if (!channel.durableAcks()) {
            ack(tokens);
            return;
        }
        channel.call(Op.SHARED_ACK_DURABLE, b -> {
            names(b);
            Values.writeTokens(b, tokens);
            Values.writeDurability(b, durability);
        }, b -> null);
    }

    @Override
    public void nack(LeaseToken token, Duration delay, String reason) {
        Objects.requireNonNull(token, "token");
        channel.call(Op.SHARED_NACK, b -> {
            names(b);
            Values.writeToken(b, token);
            Fields.writeMillis(b, delay);
            Fields.writeString(b, reason);
        }, b -> null);
    }

    /** {@code queue group list<token>} → empty. Idle streams of the queue close too (see RemoteTaskQueue). */
    @Override
    public void returnUndelivered(List<LeaseToken> tokens) {
        Objects.requireNonNull(tokens, "tokens");
        channel.streamRegistry().closeIdle(queue.name(), 0, true);
        if (tokens.isEmpty()) {
            return;
        }
        channel.call(Op.SHARED_RETURN_UNDELIVERED, b -> {
            names(b);
            Values.writeTokens(b, tokens);
        }, b -> null);
    }

    @Override
    public long extend(LeaseToken token, Duration lease) {
        Objects.requireNonNull(token, "token");
        return channel.call(Op.SHARED_EXTEND, b -> {
            names(b);
            Values.writeToken(b, token);
            Fields.writeMillis(b, lease);
        }, Fields::readLong);
    }

    @Override
    public long committedOffset() {
        return channel.call(Op.SHARED_COMMITTED, this::names, Fields::readLong);
    }

    @Override
    public TaskCounts counts() {
        return channel.call(Op.SHARED_COUNTS, this::names, Values::readCounts);
    }

    @Override
    public long lag() {
        return channel.call(Op.SHARED_LAG, this::names, Fields::readLong);
    }

    /** The task queue {@code <queue>:<group>/dlq}, which the broker serves like any other. */
    @Override
    public TaskQueue deadLetters() {
        return queue.store().taskQueue(queue.name() + ":" + name + TaskQueue.DEAD_LETTER_SUFFIX);
    }

    @Override
    public String toString() {
        return "RemoteSharedGroup[" + queue.name() + "/" + name + "]";
    }
}
