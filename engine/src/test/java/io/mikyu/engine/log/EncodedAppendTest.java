package io.mikyu.engine.log;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EncodedBatch;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.RecordDescriptor;
import io.mikyu.engine.spi.BatchCodec;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Batches encoded by a transport (a remote client) are checked in full, then appended as they are. */
class EncodedAppendTest {

    @TempDir
    Path data;

    private static final List<Entry> ENTRIES = List.of(
            Entry.of("first"),
            Entry.keyed("k", "second").withHeaders(Headers.of("type", "order")).withTimestamp(1_700_000_000_000L),
            Entry.tombstone("k"));

    /** A store whose clock reads ten seconds after the entries' explicit timestamp: within the clients' window. */
    private Mikyu openNearTheEntriesTime() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(new SteppableTimeSource(1_700_000_010_000L)).build());
    }

    @Test
    void anEncodedBatchIsAppendedAsItsEntriesWouldBeAndSurvivesAReopen() {
        try (Mikyu store = openNearTheEntriesTime()) {
            LogQueue q = store.createLog("events");
            q.append(Entry.of("before"));
            long first = q.appendEncoded(BatchCodec.encode(ENTRIES), Durability.SYNC);
            assertThat(first).isEqualTo(1);
            assertThat(q.endOffset()).isEqualTo(4);
        }
        try (Mikyu store = openNearTheEntriesTime()) {
            List<Record> records = store.log("events").read(0, 10);
            assertThat(records).extracting(Record::offset).containsExactly(0L, 1L, 2L, 3L);
            assertThat(records.get(1).payloadAsString()).isEqualTo("first");
            Record second = records.get(2);
            assertThat(second.key()).isEqualTo("k".getBytes(StandardCharsets.UTF_8));
            assertThat(second.headers().getString("type")).isEqualTo("order");
            assertThat(second.timestamp()).isEqualTo(1_700_000_000_000L);
            assertThat(records.get(3).payload()).isNull();
        }
    }

    @Test
    void encodingIntoABufferWritesTheSameBytesAsEncodingIntoAnArray() {
        List<Entry> timed = ENTRIES.stream().map(e -> e.withTimestamp(1_700_000_000_123L)).toList();
        byte[] expected = BatchCodec.encode(timed).bytes();
        assertThat(BatchCodec.encodedSize(timed)).isEqualTo(expected.length);
        for (ByteBuffer target : List.of(ByteBuffer.allocate(expected.length + 9), ByteBuffer.allocateDirect(expected.length + 9))) {
            target.position(5);
            BatchCodec.encodeInto(timed, target);
            assertThat(target.position()).isEqualTo(5 + expected.length);
            byte[] written = new byte[expected.length];
            target.get(5, written);
            assertThat(written).isEqualTo(expected);
        }
        assertThatThrownBy(() -> BatchCodec.encodeInto(timed, ByteBuffer.allocate(expected.length - 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes " + expected.length);
    }

    @Test
    void aBatchWithAWrongChecksumIsRefusedAndNothingIsAppended() {
        byte[] bytes = BatchCodec.encode(ENTRIES).bytes();
        bytes[bytes.length - 1] ^= 1;
        assertRefused(bytes, "CRC32C");
    }

    @Test
    void aTruncatedBatchIsRefused() {
        byte[] bytes = BatchCodec.encode(ENTRIES).bytes();
        assertRefused(java.util.Arrays.copyOf(bytes, bytes.length - 3), "declares");
        assertRefused(new byte[10], "shorter than a batch header");
    }

    @Test
    void aRecordThatRunsPastTheBatchIsRefusedEvenWithARightChecksum() {
        assertRefused(tampered(b -> b.putInt(BatchDescriptor.HEADER_LENGTH + RecordDescriptor.LENGTH_OFFSET, 1 << 20)),
                "past the end of the batch");
        assertRefused(tampered(b -> b.putInt(BatchDescriptor.HEADER_LENGTH + RecordDescriptor.VALUE_LENGTH_OFFSET,
                1 << 20)), "do not fit");
    }

    @Test
    void recordsOutOfOrderOrMiscountedAreRefused() {
        assertRefused(tampered(b -> b.putInt(BatchDescriptor.HEADER_LENGTH + RecordDescriptor.OFFSET_DELTA_OFFSET, 7)),
                "offset delta");
        assertRefused(tampered(b -> b.putInt(BatchDescriptor.RECORD_COUNT_OFFSET, 2)), "declares 2 records");
    }

    @Test
    void onlyPlainDataBatchesAreAccepted() {
        assertRefused(tampered(b -> b.put(BatchDescriptor.TYPE_OFFSET, BatchDescriptor.TYPE_TASK)), "not a data batch");
        assertRefused(tampered(b -> b.putLong(BatchDescriptor.PRODUCER_ID_OFFSET, 42)), "transaction id");
        assertRefused(tampered(b -> b.putLong(BatchDescriptor.MAX_TIMESTAMP_OFFSET, 1)), "max timestamp");
    }

    @Test
    void theStoresRecordLimitAppliesToEncodedBatches() {
        EngineConfig small = EngineConfig.builder().maxRecordBytes(1024).build();
        try (Mikyu store = Mikyu.open(data, small)) {
            LogQueue q = store.createLog("events");
            EncodedBatch big = BatchCodec.encode(List.of(Entry.of(new byte[4096])));
            assertThatThrownBy(() -> q.appendEncoded(big, Durability.ASYNC))
                    .isInstanceOf(RecordTooLargeException.class).hasMessageContaining("maximum record size of 1024");
            assertThat(q.endOffset()).isZero();
        }
    }

    private void assertRefused(byte[] bytes, String why) {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.getOrCreateLog("events", io.mikyu.engine.LogQueueConfig.defaults());
            long end = q.endOffset();
            assertThatThrownBy(() -> q.appendEncoded(EncodedBatch.wrap(bytes), Durability.ASYNC))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed encoded batch")
                    .hasMessageContaining(why);
            assertThat(q.endOffset()).isEqualTo(end);
            q.append(Entry.of("still writable"));
            assertThat(q.read(end).payloadAsString()).isEqualTo("still writable");
        }
    }

    /** An encoded batch changed by {@code change}, its checksum made right again. */
    private static byte[] tampered(Consumer<ByteBuffer> change) {
        byte[] bytes = BatchCodec.encode(ENTRIES).bytes();
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        change.accept(buf);
        CRC32C crc = new CRC32C();
        crc.update(bytes, BatchDescriptor.CRC_START, bytes.length - BatchDescriptor.CRC_START);
        buf.putInt(BatchDescriptor.CRC_OFFSET, (int) crc.getValue());
        return bytes;
    }
}
