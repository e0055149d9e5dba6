package io.mikyu.broker.server;

import io.mikyu.engine.EncodedBatchHandler;
import io.mikyu.engine.RecordView;
import io.mikyu.protocol.Values;

import java.nio.ByteBuffer;

/**
 * Writes what an encoded poll reads into its answer, as it is read: a stored batch as {@code 0:u8 batch:bytes}
 * (copied once, from the cache or the mapped segment into the frame), a record of a batch too large for one frame
 * as {@code 1:u8 record}.
 */
final class EncodedItems implements EncodedBatchHandler {

    static final int BATCH = 0;
    static final int RECORD = 1;

    private final Reply.Items items;
    private int count;

    EncodedItems(Reply.Items items) {
        this.items = items;
    }

    /** Items written so far. */
    int count() {
        return count;
    }

    @Override
    public void onBatch(ByteBuffer batch) {
        count++;
        items.add(1 + 4 + batch.remaining(), b -> {
            b.writeByte(BATCH);
            b.writeInt(batch.remaining());
            b.writeBytes(batch.duplicate());
        });
    }

    @Override
    public void onRecord(RecordView record) {
        io.mikyu.engine.Record copy = record.toRecord();
        count++;
        items.add(b -> {
            b.writeByte(RECORD);
            Values.writeRecord(b, copy);
        });
    }
}
