package io.mikyu.kafka.log;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.OffsetOutOfRangeException;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.Record;
import io.mikyu.kafka.support.KafkaTestCluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Log queues on the in-JVM cluster: topics, appends, reads by offset, consumer groups with committed offsets. */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaLogQueueTest {

    @Test
    void appendsGetConsecutiveOffsetsAndReadBackByOffset() {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue log = mikyu.createLog("events");
            assertThat(log.append(Entry.of("a"))).isZero();
            assertThat(log.append(new Entry("k".getBytes(), Headers.of("type", "order"), "b".getBytes(), 1234L)))
                    .isEqualTo(1);
            assertThat(log.appendBatch(List.of(Entry.of("c"), Entry.of("d")))).isEqualTo(2);

            assertThat(log.endOffset()).isEqualTo(4);
            assertThat(log.startOffset()).isZero();
            Record b = log.read(1);
            assertThat(b.payloadAsString()).isEqualTo("b");
            assertThat(b.keyAsString()).isEqualTo("k");
            assertThat(b.headers().getString("type")).isEqualTo("order");
            assertThat(b.timestamp()).isEqualTo(1234L);
            assertThat(log.read(1, 10)).extracting(Record::payloadAsString).containsExactly("b", "c", "d");
            assertThat(log.read(4, 10)).isEmpty();
            assertThatThrownBy(() -> log.read(4)).isInstanceOf(OffsetOutOfRangeException.class);
        }
    }

    @Test
    void aPollWaitsForTheNextAppend() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue log = mikyu.createLog("waited");
            CompletableFuture<List<Record>> polled = CompletableFuture.supplyAsync(() -> {
                try {
                    return log.poll(0, 10, Duration.ofMinutes(2));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            log.append(Entry.of("late"));
            assertThat(polled.get(2, TimeUnit.MINUTES)).extracting(Record::payloadAsString).containsExactly("late");
        }
    }

    @Test
    void aConsumerGroupsOffsetIsKafkasAndOutlivesTheHandle() {
        String uri = KafkaTestCluster.uri();
        try (Mikyu mikyu = Mikyu.dial(uri)) {
            LogQueue log = mikyu.createLog("orders");
            for (int i = 0; i < 5; i++) {
                log.append(Entry.of("o" + i));
            }
            ConsumerGroup billing = log.group("billing");
            assertThat(billing.hasCommitted()).isFalse();
            assertThat(billing.position()).isZero();
            billing.commit(3);
            assertThat(log.groups()).containsExactly("billing");
        }
        try (Mikyu again = Mikyu.dial(uri)) {
            ConsumerGroup billing = again.log("orders").group("billing");
            assertThat(billing.hasCommitted()).isTrue();
            assertThat(billing.position()).isEqualTo(3);
            assertThat(billing.lag()).isEqualTo(2);
            assertThat(billing.reset(OffsetReset.earliest())).isZero();
            assertThat(again.log("orders").deleteGroup("billing")).isTrue();
            assertThat(again.log("orders").groups()).isEmpty();
        }
    }

    @Test
    void settingsBecomeTopicSettingsAndComeBack() {
        String uri = KafkaTestCluster.uri();
        LogQueueConfig config = LogQueueConfig.defaults().withRetentionAge(Duration.ofHours(6))
                .withRetentionBytes(50L * 1024 * 1024).withCompaction(true).withTombstoneRetention(Duration.ofMinutes(5))
                .withSegmentBytes(8L * 1024 * 1024);
        try (Mikyu mikyu = Mikyu.dial(uri)) {
            mikyu.createLog("settings", config);
            assertThatThrownBy(() -> mikyu.createLog("settings", config)).isInstanceOf(QueueExistsException.class);
        }
        try (Mikyu again = Mikyu.dial(uri)) {
            LogQueueConfig read = again.log("settings").config();
            assertThat(read.retentionAge()).isEqualTo(Duration.ofHours(6));
            assertThat(read.retentionBytes()).isEqualTo(50L * 1024 * 1024);
            assertThat(read.compacted()).isTrue();
            assertThat(read.tombstoneRetention()).isEqualTo(Duration.ofMinutes(5));
            assertThat(read.segmentBytes()).isEqualTo(8L * 1024 * 1024);
        }
    }

    @Test
    void queuesAreListedAndDeletedByTheirMikyuNames() {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            mikyu.createLog("a.b_c");
            mikyu.createLog("plain");
            assertThat(mikyu.list(QueueKind.LOG)).containsExactly("a.b_c", "plain");
            assertThat(mikyu.deleteLog("a.b_c")).isTrue();
            assertThat(mikyu.deleteLog("a.b_c")).isFalse();
            assertThatThrownBy(() -> mikyu.createLog("no spaces"))
                    .isInstanceOf(io.mikyu.engine.InvalidQueueNameException.class);
            assertThatThrownBy(() -> mikyu.log("never")).isInstanceOf(QueueNotFoundException.class);
        }
    }
}
