package io.mikyu.client;

import io.mikyu.engine.Headers;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordView;

import java.nio.ByteBuffer;

/** A {@link RecordView} over a record that has already been copied off the wire. */
final class CopiedRecordView implements RecordView {

    private final Record record;

    CopiedRecordView(Record record) {
        this.record = record;
    }

    @Override
    public long offset() {
        return record.offset();
    }

    @Override
    public long timestamp() {
        return record.timestamp();
    }

    @Override
    public ByteBuffer key() {
        return record.key() == null ? null : ByteBuffer.wrap(record.key()).asReadOnlyBuffer();
    }

    @Override
    public ByteBuffer payload() {
        return record.payload() == null ? null : ByteBuffer.wrap(record.payload()).asReadOnlyBuffer();
    }

    @Override
    public Headers headers() {
        return record.headers();
    }

    @Override
    public Record toRecord() {
        return record;
    }
}
