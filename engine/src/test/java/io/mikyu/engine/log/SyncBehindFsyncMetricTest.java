package io.mikyu.engine.log;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code mikyu.engine.sync.behind.fsync} counts the synchronous appends that arrived while the writer was fsyncing
 * (each waits for that fsync, then for its own): what overlapping fsyncs would take off a synchronous append's
 * wait. An fsync held in progress makes the arrival certain.
 */
@Timeout(60)
class SyncBehindFsyncMetricTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path data;

    @Test
    void aSyncAppendArrivingDuringAnFsyncIsCountedAndOneArrivingWhenIdleIsNot() throws Exception {
        Path segments = data.toAbsolutePath().normalize().resolve("log").resolve("q");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // no background flush: the writer's fsyncs are the only ones of the segment
        EngineConfig config = EngineConfig.builder().flushInterval(Duration.ofHours(1)).meterRegistry(registry).build();
        ExecutorService producers = Executors.newFixedThreadPool(2);
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = Mikyu.open(data, config)) {
            LogQueue q = store.createLog("q", LogQueueConfig.defaults().withDurability(Durability.SYNC));
            q.append(Entry.of("alone"));
            q.append(Entry.of("alone again"));
            assertThat(behindFsync(registry)).as("appends that found the writer idle").isZero();

            faults.holdForces(f -> f.startsWith(segments) && f.toString().endsWith(".seg"));
            try {
                CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> q.append(Entry.of("first")),
                        producers);
                await().atMost(DEADLINE).until(() -> faults.heldForces() == 1);

                AtomicReference<Thread> secondThread = new AtomicReference<>();
                CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> {
                    secondThread.set(Thread.currentThread());
                    return q.append(Entry.of("second, behind the first's fsync"));
                }, producers);
                // parked waiting for its completion: submitted while the first's fsync is still held
                await().atMost(DEADLINE).until(() -> secondThread.get() != null
                        && secondThread.get().getState() == Thread.State.WAITING);
                assertThat(second).isNotDone();

                faults.releaseForces();
                assertThat(first.get()).isEqualTo(2);
                assertThat(second.get()).isEqualTo(3);
            } finally {
                faults.releaseForces();
            }
            assertThat(behindFsync(registry)).as("the second append waited for the first's fsync").isEqualTo(1.0);

            store.createLog("a", LogQueueConfig.defaults().withDurability(Durability.ASYNC)).append(Entry.of("async"));
            q.append(Entry.of("idle again"));
            assertThat(behindFsync(registry)).as("async and idle appends are not counted").isEqualTo(1.0);
        } finally {
            producers.shutdownNow();
        }
    }

    private static double behindFsync(SimpleMeterRegistry registry) {
        return registry.get("mikyu.engine.sync.behind.fsync").functionCounter().count();
    }
}
