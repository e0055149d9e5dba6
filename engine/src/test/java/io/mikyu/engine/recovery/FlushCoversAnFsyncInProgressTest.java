package io.mikyu.engine.recovery;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code flush()} returns once everything appended before it is on disk, also while another thread's fsync of the
 * same segment is still in progress (the background flusher's, or a concurrent {@code flush()}). That fsync
 * cleared the segment's dirty mark when it began, so a flush that trusted the mark returned at once, before the
 * data was durable: the power-loss campaign lost async appends acknowledged before a completed {@code flush()}.
 */
@Timeout(60)
class FlushCoversAnFsyncInProgressTest {

    @TempDir
    Path data;

    @Test
    void aFlushWaitsForDataWhoseFsyncAnotherThreadHasBegun() throws Exception {
        Path segments = data.toAbsolutePath().normalize().resolve("log").resolve("q");
        // no background flush during the test: the two flushes below are the only fsyncs of the segment
        EngineConfig config = EngineConfig.builder().flushInterval(Duration.ofHours(1)).build();
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = Mikyu.open(data, config)) {
            LogQueue q = store.createLog("q", LogQueueConfig.defaults().withDurability(Durability.ASYNC));
            q.append(Entry.of("acknowledged before the flush"));

            faults.holdForces(f -> f.startsWith(segments) && f.toString().endsWith(".seg"));
            try {
                CompletableFuture<Void> first = CompletableFuture.runAsync(store::flush);
                await().until(() -> faults.heldForces() == 1);

                CompletableFuture<Void> second = CompletableFuture.runAsync(store::flush);
                await().until(() -> second.isDone() || faults.heldForces() == 2);
                assertThat(second).as("the second flush() returned while the data's only fsync was in progress")
                        .isNotDone();
                assertThat(faults.heldForces()).as("it fsynced the segment itself").isEqualTo(2);

                faults.releaseForces();
                first.get();
                second.get();
            } finally {
                faults.releaseForces();
            }
        }
    }
}
