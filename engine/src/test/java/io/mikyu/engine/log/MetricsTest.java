package io.mikyu.engine.log;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsTest {

    @TempDir
    Path data;

    @Test
    void queueAndEngineMetersMoveWithAppendsAndFsyncs() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().meterRegistry(registry).build())) {
            LogQueue q = store.createLog("metered", LogQueueConfig.defaults().withDurability(Durability.SYNC));
            double commitsBefore = registry.get("mikyu.engine.commits").functionCounter().count();
            double fsyncsBefore = registry.get("mikyu.engine.fsyncs").functionCounter().count();
            for (int i = 0; i < 10; i++) {
                q.append(Entry.of("m" + i));
            }
            q.appendBatch(java.util.List.of(Entry.of("b1"), Entry.of("b2")));

            assertThat(registry.get("mikyu.queue.in").tags("queue", "metered", "kind", "log").functionCounter()
                    .count()).isEqualTo(12.0);
            assertThat(registry.get("mikyu.engine.commits").functionCounter().count())
                    .isGreaterThan(commitsBefore);
            assertThat(registry.get("mikyu.engine.fsyncs").functionCounter().count())
                    .isGreaterThan(fsyncsBefore);

            q.read(0, 5);
            assertThat(registry.get("mikyu.queue.out").tags("queue", "metered").functionCounter().count())
                    .isEqualTo(5.0);
            q.group("g").commit(4);
            assertThat(registry.get("mikyu.group.lag").tags("queue", "metered", "group", "g").gauge().value())
                    .isEqualTo(8.0);

            assertThat(store.deleteLog("metered")).isTrue();
            assertThat(registry.find("mikyu.queue.in").tags("queue", "metered").functionCounter())
                    .as("a deleted queue's meters are removed").isNull();
        }
    }

    @Test
    void eachQueueHasItsOwnTaggedMeters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().meterRegistry(registry).build())) {
            store.createLog("a").append(Entry.of("x"));
            LogQueue b = store.createLog("b");
            b.append(Entry.of("y"));
            b.append(Entry.of("z"));
            assertThat(registry.get("mikyu.queue.in").tags("queue", "a").functionCounter().count()).isEqualTo(1.0);
            assertThat(registry.get("mikyu.queue.in").tags("queue", "b").functionCounter().count()).isEqualTo(2.0);
        }
    }

    @Test
    void engineMetersFollowAStoreReopenedWithTheSameRegistry() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        EngineConfig config = EngineConfig.builder().meterRegistry(registry).build();
        try (Mikyu store = Mikyu.open(data, config)) {
            store.createLog("q", LogQueueConfig.defaults().withDurability(Durability.SYNC)).append(Entry.of("1"));
        }
        try (Mikyu store = Mikyu.open(data, config)) {
            double commits = registry.get("mikyu.engine.commits").functionCounter().count();
            double fsyncs = registry.get("mikyu.engine.fsyncs").functionCounter().count();
            for (int i = 0; i < 5; i++) {
                store.log("q").append(Entry.of("more"));
            }
            assertThat(registry.get("mikyu.queue.in").tags("queue", "q").functionCounter().count())
                    .as("queue meters are re-registered on reopen").isEqualTo(5.0);
            assertThat(registry.get("mikyu.engine.commits").functionCounter().count())
                    .as("engine commit counter of the reopened store").isGreaterThanOrEqualTo(commits + 1);
            assertThat(registry.get("mikyu.engine.fsyncs").functionCounter().count())
                    .as("engine fsync counter of the reopened store").isGreaterThanOrEqualTo(fsyncs + 1);
            assertThat(registry.get("mikyu.engine.disk.bytes").gauge().value())
                    .as("disk gauge of the reopened store").isPositive();
        }
    }
}
