package io.mikyu.engine.log;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Entry;
import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.Record;
import io.mikyu.engine.support.Fill;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConsumerGroupTest {

    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path data;

    private Mikyu store;
    private LogQueue q;

    @BeforeEach
    void open() {
        store = Mikyu.open(data);
        q = store.createLog("orders");
        for (int i = 0; i < 10; i++) {
            q.append(Entry.of(Fill.payload(i)).withTimestamp(T0 + i * 1000L));
        }
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void reopen() {
        store.close();
        store = Mikyu.open(data);
        q = store.log("orders");
    }

    @Test
    void aNewGroupStartsAtTheStartWithoutACommit() {
        ConsumerGroup g = q.group("billing");
        assertThat(g.name()).isEqualTo("billing");
        assertThat(g.queue()).isEqualTo("orders");
        assertThat(g.hasCommitted()).isFalse();
        assertThat(g.position()).isZero();
        assertThat(g.lag()).isEqualTo(10);
        assertThat(q.groups()).containsExactly("billing");
    }

    @Test
    void commitMovesThePositionAndTheLag() {
        ConsumerGroup g = q.group("billing");
        g.commit(4);
        assertThat(g.hasCommitted()).isTrue();
        assertThat(g.position()).isEqualTo(4);
        assertThat(g.lag()).isEqualTo(6);
        g.commit(10);
        assertThat(g.lag()).isZero();
        q.append(Entry.of("more"));
        assertThat(g.lag()).isEqualTo(1);
    }

    @Test
    void aCommitOutsideTheLogIsRejected() {
        ConsumerGroup g = q.group("billing");
        assertThatThrownBy(() -> g.commit(11)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("billing").hasMessageContaining("orders");
        assertThatThrownBy(() -> g.commit(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(g.hasCommitted()).isFalse();
    }

    @Test
    void pollReadsFromThePositionWithoutCommitting() throws Exception {
        ConsumerGroup g = q.group("billing");
        g.commit(7);
        List<Record> records = g.poll(10, Duration.ofMillis(10));
        assertThat(records).extracting(Record::offset).containsExactly(7L, 8L, 9L);
        assertThat(g.position()).isEqualTo(7);
        g.commit(10);
        assertThat(g.poll(10, Duration.ofMillis(50))).isEmpty();
    }

    @Test
    void resetMovesToEarliestLatestAnOffsetOrATimestampAndCommits() {
        ConsumerGroup g = q.group("billing");
        assertThat(g.reset(OffsetReset.latest())).isEqualTo(10);
        assertThat(g.position()).isEqualTo(10);
        assertThat(g.hasCommitted()).isTrue();
        assertThat(g.reset(OffsetReset.earliest())).isZero();
        assertThat(g.reset(OffsetReset.toOffset(6))).isEqualTo(6);
        assertThat(g.reset(OffsetReset.toOffset(500))).as("clamped to the end").isEqualTo(10);
        assertThat(g.reset(OffsetReset.toOffset(-3))).as("clamped to the start").isZero();
        assertThat(g.reset(OffsetReset.toTimestamp(T0 + 3500))).isEqualTo(4);
        assertThat(g.reset(OffsetReset.toTimestamp(T0 + 3000))).isEqualTo(3);
        assertThat(g.reset(OffsetReset.toTimestamp(T0 + 999_999))).isEqualTo(10);
        reopen();
        assertThat(q.group("billing").position()).isEqualTo(10);
    }

    @Test
    void committedPositionsAreDurableAcrossReopen() {
        q.group("a").commit(3);
        q.group("b").commit(8);
        q.group("never");
        reopen();
        assertThat(q.groups()).containsExactly("a", "b", "never");
        assertThat(q.group("a").position()).isEqualTo(3);
        assertThat(q.group("b").position()).isEqualTo(8);
        assertThat(q.group("never").hasCommitted()).isFalse();
    }

    @Test
    void manyCommitsAreDurableAcrossReopen() {
        ConsumerGroup g = q.group("busy");
        for (int round = 0; round < 3000; round++) {
            g.commit(round % 11);
        }
        g.commit(9);
        reopen();
        assertThat(q.group("busy").position()).isEqualTo(9);
    }

    @Test
    void deleteGroupRemovesItAndItsCommitDurably() {
        q.group("a").commit(5);
        q.group("b").commit(2);
        assertThat(q.deleteGroup("a")).isTrue();
        assertThat(q.deleteGroup("a")).isFalse();
        assertThat(q.deleteGroup("unknown")).isFalse();
        assertThat(q.groups()).containsExactly("b");
        reopen();
        assertThat(q.groups()).containsExactly("b");
        ConsumerGroup again = q.group("a");
        assertThat(again.hasCommitted()).isFalse();
        assertThat(again.position()).isZero();
    }

    @Test
    void groupNamesFollowTheQueueNameRules() {
        for (String bad : new String[] {"", "..", "a/b", ".hidden", "x".repeat(201), "quarantine"}) {
            assertThatThrownBy(() -> q.group(bad)).as("group name '%s'", bad)
                    .isInstanceOf(InvalidQueueNameException.class);
        }
        assertThat(q.groups()).isEmpty();
    }

    @Test
    void aGroupWhoseRecordsWereRemovedByRetentionIsAtTheNewStart() {
        store.close();
        store = Mikyu.open(data);
        LogQueue small = store.createLog("small", LogQueueConfig.defaults().withSegmentBytes(4096)
                .withRetentionAge(Duration.ofHours(1)));
        long old = System.currentTimeMillis() - Duration.ofHours(2).toMillis();
        for (int i = 0; i < 100; i++) {
            small.append(Entry.of(Fill.payload(i)).withTimestamp(old));
        }
        small.append(Entry.of("fresh"));
        ConsumerGroup g = small.group("slow");
        g.commit(3);
        assertThat(small.applyRetention()).isPositive();
        assertThat(g.position()).isEqualTo(small.startOffset()).isGreaterThan(3);
        assertThat(g.lag()).isEqualTo(small.endOffset() - small.startOffset());
    }
}
