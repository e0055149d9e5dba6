package io.mikyu.engine.internal.format;

import io.mikyu.engine.Record;
import io.mikyu.engine.RecordHandler;

import java.nio.ByteBuffer;
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
