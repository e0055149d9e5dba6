package io.mikyu.client;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.Record;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;

/** An exclusive consumer group on a broker; every request names the queue and the group. */
final class RemoteConsumerGroup implements ConsumerGroup {

    private final BrokerChannel channel;
    private final String queue;
    private final String name;

    RemoteConsumerGroup(BrokerChannel channel, String queue, String name) {
        this.channel = channel;
        this.queue = queue;
        this.name = name;
    }

    private void names(ByteBuf b) {
        Fields.writeString(b, queue);
        Fields.writeString(b, name);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String queue() {
        return queue;
    }

    @Override
    public long position() {
        return channel.call(Op.GROUP_POSITION, this::names, Fields::readLong);
    }

    @Override
    public boolean hasCommitted() {
        return channel.call(Op.GROUP_HAS_COMMITTED, this::names, Fields::readBool);
    }

    @Override
    public void commit(long nextOffset) {
        channel.call(Op.GROUP_COMMIT, b -> {
            names(b);
            b.writeLong(nextOffset);
        }, b -> null);
    }

    @Override
    public long reset(OffsetReset reset) {
        return channel.call(Op.GROUP_RESET, b -> {
            names(b);
            Values.writeOffsetReset(b, reset);
        }, Fields::readLong);
    }

    @Override
    public List<Record> poll(int maxRecords, Duration wait) throws InterruptedException {
        return channel.callList(Op.GROUP_POLL, b -> {
            names(b);
            b.writeInt(maxRecords);
            Fields.writeMillis(b, wait);
        }, Values::readRecord, RemoteLogQueue.RECORD_MIN_BYTES, wait);
    }

    @Override
    public long lag() {
        return channel.call(Op.GROUP_LAG, this::names, Fields::readLong);
    }

    @Override
    public String toString() {
        return "RemoteConsumerGroup[" + queue + "/" + name + "]";
    }
}
