package io.mikyu.engine.log;

import io.mikyu.engine.ClientClockWindow;
import io.mikyu.engine.Durability;
import io.mikyu.engine.EncodedBatch;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.spi.BatchCodec;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch encoded by a client whose clock is far off gets the store's time for those records, in the bytes that
 * reach the segment file too (the transport's direct copy), checksum included; one within the window is kept.
 */
class ClientTimestampsTest {

    private static final long STORE_NOW = 1_800_000_000_000L;

    @TempDir
    Path data;

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(new SteppableTimeSource(STORE_NOW)).build());
    }

    private static EncodedBatch withDirectCopy(List<Entry> entries) {
        byte[] bytes = BatchCodec.encode(entries).bytes();
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
        direct.put(bytes).flip();
        return EncodedBatch.wrap(bytes, direct);
    }

    @Test
    void recordsStampedFarOffGetTheStoresTimeOnDiskAndTheOthersKeepTheirs() {
        long near = STORE_NOW - ClientClockWindow.MILLIS / 2;
        List<Entry> entries = List.of(
                Entry.of("hours behind").withTimestamp(STORE_NOW - Duration.ofHours(3).toMillis()),
                Entry.of("near").withTimestamp(near),
                Entry.of("hours ahead").withTimestamp(STORE_NOW + Duration.ofHours(3).toMillis()));
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("events");
            q.appendEncoded(withDirectCopy(entries), Durability.SYNC);
        }
        try (Mikyu store = open()) { // read back from the segment file, every batch's CRC checked
            List<Record> records = store.log("events").read(0, 10);
            assertThat(records).extracting(Record::timestamp).containsExactly(STORE_NOW, near, STORE_NOW);
            assertThat(records).extracting(Record::payloadAsString)
                    .containsExactly("hours behind", "near", "hours ahead");
        }
    }
}
