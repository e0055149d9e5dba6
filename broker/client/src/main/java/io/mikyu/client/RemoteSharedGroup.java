package io.mikyu.client;

import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskQueue;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;

/**
 * A shared consumer group on a broker. The broker keeps the group this connection opened ({@link Op#SHARED_OPEN}),
 * with its admission filter, and requests name it by queue and group.
 */
final class RemoteSharedGroup extends RemoteLeasingHandle<SharedGroup.Delivery> implements SharedGroup {

    private static final int DELIVERY_MIN_BYTES = RemoteLogQueue.RECORD_MIN_BYTES + 16 + 4 + 8;

    private final RemoteLogQueue queue;
    private final SharedGroupConfig config;

    RemoteSharedGroup(BrokerChannel channel, RemoteLogQueue queue, String name, SharedGroupConfig config) {
        super(channel, name, LeaseOps.SHARED_GROUP, queue.name(), name, Values::readDelivery, DELIVERY_MIN_BYTES,
                Delivery::token);
        this.queue = queue;
        this.config = config;
    }

    /** {@code queue:string group:string} */
    @Override
    void writeNames(ByteBuf b) {
        Fields.writeString(b, queue.name());
        Fields.writeString(b, name());
    }

    @Override
    public String queue() {
        return queue.name();
    }

    @Override
    public SharedGroupConfig config() {
        return config;
    }

    /** Taken as {@link RemoteLeasingHandle#take} says, from the stream of this group and lease. */
    @Override
    public List<Delivery> fetch(int max, Duration lease, Duration wait) throws InterruptedException {
        return take(max, lease, wait, null);
    }

    @Override
    public long committedOffset() {
        return call(Op.SHARED_COMMITTED, Fields::readLong);
    }

    @Override
    public long lag() {
        return call(Op.SHARED_LAG, Fields::readLong);
    }

    /** The task queue {@code <queue>:<group>/dlq}, which the broker serves like any other. */
    @Override
    public TaskQueue deadLetters() {
        return queue.store().taskQueue(queue.name() + ":" + name() + TaskQueue.DEAD_LETTER_SUFFIX);
    }

    @Override
    public String toString() {
        return "RemoteSharedGroup[" + queue.name() + "/" + name() + "]";
    }
}
