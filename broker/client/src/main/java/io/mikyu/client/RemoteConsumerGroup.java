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
final class RemoteConsumerGroup extends RemoteHandle implements ConsumerGroup {

    private final String queue;

    RemoteConsumerGroup(BrokerChannel channel, String queue, String name) {
        super(channel, name);
        this.queue = queue;
    }

    /** {@code queue:string group:string} */
    @Override
    void writeNames(ByteBuf b) {
        Fields.writeString(b, queue);
        Fields.writeString(b, name());
    }

    @Override
    public String queue() {
        return queue;
    }

    @Override
    public long position() {
        return call(Op.GROUP_POSITION, Fields::readLong);
    }

    @Override
    public boolean hasCommitted() {
        return call(Op.GROUP_HAS_COMMITTED, Fields::readBool);
    }

    @Override
    public void commit(long nextOffset) {
        call(Op.GROUP_COMMIT, b -> b.writeLong(nextOffset), b -> null);
    }

    @Override
    public long reset(OffsetReset reset) {
        return call(Op.GROUP_RESET, b -> Values.writeOffsetReset(b, reset), Fields::readLong);
    }

    @Override
    public List<Record> poll(int maxRecords, Duration wait) throws InterruptedException {
        return callList(Op.GROUP_POLL, b -> {
            b.writeInt(maxRecords);
            Fields.writeMillis(b, wait);
        }, Values::readRecord, RemoteLogQueue.RECORD_MIN_BYTES, wait);
    }

    @Override
    public long lag() {
        return call(Op.GROUP_LAG, Fields::readLong);
    }

    @Override
    public String toString() {
        return "RemoteConsumerGroup[" + queue + "/" + name() + "]";
    }
}
