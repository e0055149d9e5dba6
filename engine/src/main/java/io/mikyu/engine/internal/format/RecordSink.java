package io.mikyu.engine.internal.format;

import io.mikyu.engine.EncodedBatchHandler;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordHandler;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a read puts the records of the batches it walks: into a list of {@link Record}s, or in place to a
 * {@link RecordHandler}. The cache and the segment files are walked the same way for both.
 */
public interface RecordSink {

    /** Takes the records of the checked batch at {@code pos} from {@code minOffset} on; returns where to go on. */
    long take(ByteBuffer buf, int pos, long minOffset, Path file, long filePositionBase);

    /** No further record is wanted. */
    boolean isFull();

    /** Records taken so far. */
    long taken();

    /** Decodes into a list, bounded by a count and a byte budget. */
    static RecordSink toList(List<Record> out, int maxRecords, long maxBytes) {
        BatchReader.ReadBudget budget = new BatchReader.ReadBudget(maxBytes);
        return new RecordSink() {
            @Override
            public long take(ByteBuffer buf, int pos, long minOffset, Path file, long base) {
                return BatchReader.decode(buf, pos, minOffset, out, maxRecords, budget, file, base);
            }

            @Override
            public boolean isFull() {
                return out.size() >= maxRecords || budget.exhausted();
            }

            @Override
            public long taken() {
                return out.size();
            }
        };
    }

    /**
     * Shows whole batches in place to {@code handler} until {@code maxBytes} (always the first); a batch over
     * {@code maxBatchBytes} goes record by record. Counts the records of the batches shown.
     */
    static RecordSink toBatches(EncodedBatchHandler handler, long maxBytes, int maxBatchBytes) {
        RecordCursor cursor = new RecordCursor();
        RecordHandler oneByOne = handler::onRecord;
        return new RecordSink() {
            private long bytes;
            private long records;
            private boolean full;

            @Override
            public long take(ByteBuffer buf, int pos, long minOffset, Path file, long base) {
                int total = BatchDescriptor.totalSize(BatchDescriptor.length(buf, pos));
                if (bytes > 0 && bytes + total > maxBytes) {
                    full = true;
                    return minOffset;
                }
                bytes += total;
                if (total > maxBatchBytes) {
                    long before = cursor.handled();
                    long next = cursor.visit(buf, pos, minOffset, Integer.MAX_VALUE, oneByOne, file, base);
                    this.records += cursor.handled() - before;
                    return next;
                }
                ByteBuffer batch = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
                batch.limit(pos + total).position(pos);
                handler.onBatch(batch.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN));
                this.records += BatchDescriptor.recordCount(buf, pos);
                return Math.max(minOffset, BatchDescriptor.baseOffset(buf, pos)
                        + BatchDescriptor.lastOffsetDelta(buf, pos) + 1);
            }

            @Override
            public boolean isFull() {
                return full || bytes >= maxBytes;
            }

            @Override
            public long taken() {
                return records;
            }
        };
    }

    /** Shows records in place to {@code handler}, at most {@code maxRecords}. */
    static RecordSink toHandler(RecordHandler handler, int maxRecords) {
        RecordCursor cursor = new RecordCursor();
        return new RecordSink() {
            @Override
            public long take(ByteBuffer buf, int pos, long minOffset, Path file, long base) {
                return cursor.visit(buf, pos, minOffset, (int) (maxRecords - cursor.handled()), handler, file, base);
            }

            @Override
            public boolean isFull() {
                return cursor.handled() >= maxRecords;
            }

            @Override
            public long taken() {
                return cursor.handled();
            }
        };
    }
}
