package io.mikyu.engine.internal.store;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.Record;
import io.mikyu.engine.internal.format.OffsetsDescriptor;

import java.time.Duration;
import java.util.List;

/** A consumer group in exclusive mode: a durable committed offset in the queue's offsets file. */
final class GroupHandle implements ConsumerGroup {

    private final String name;
    private final LogQueueHandle queue;

    GroupHandle(String name, LogQueueHandle queue) {
        this.name = name;
        this.queue = queue;
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
    public long position() {
        Long c = queue.offsets().committed(name);
        long start = queue.startOffset();
        if (c == null || c == OffsetsDescriptor.NO_COMMIT) {
            return start;
        }
        return Math.max(c, start);
    }

    @Override
    public boolean hasCommitted() {
        Long c = queue.offsets().committed(name);
        return c != null && c >= 0;
    }

    @Override
    public void commit(long nextOffset) {
        if (nextOffset < 0 || nextOffset > queue.endOffset()) {
            throw new IllegalArgumentException("cannot commit offset " + nextOffset + " for group '" + name
                    + "': outside [0, " + queue.endOffset() + "] of log queue '" + queue.name() + "'");
        }
        queue.offsets().commit(name, nextOffset);
    }

    @Override
    public long reset(OffsetReset reset) {
        long target = resolve(queue, reset);
        queue.offsets().commit(name, target);
        return target;
    }

    /** The offset a reset names on {@code queue}. */
    static long resolve(LogQueue queue, OffsetReset reset) {
        if (reset instanceof OffsetReset.Earliest) {
            return queue.startOffset();
        } else if (reset instanceof OffsetReset.Latest) {
            return queue.endOffset();
        } else if (reset instanceof OffsetReset.ToOffset to) {
            return Math.max(queue.startOffset(), Math.min(to.offset(), queue.endOffset()));
        } else if (reset instanceof OffsetReset.ToTimestamp ts) {
            return queue.offsetForTimestamp(ts.timestampMillis());
        }
        throw new IllegalArgumentException("unknown reset " + reset);
    }

    @Override
    public List<Record> poll(int maxRecords, Duration wait) throws InterruptedException {
        return queue.poll(position(), maxRecords, wait);
    }

    @Override
    public long lag() {
        return Math.max(0, queue.endOffset() - position());
    }

    @Override
    public String toString() {
        return "ConsumerGroup[" + queue.name() + "/" + name + " @ " + position() + "]";
    }
}
