package io.mikyu.kafka.log;

import io.mikyu.engine.Entry;
import io.mikyu.engine.HeaderEquals;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.kafka.support.KafkaTestCluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Shared groups of a log queue as share groups on the log's topic. */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaSharedGroupTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofMinutes(2);

    private static SharedGroupConfig config(int maxAttempts) {
        return SharedGroupConfig.defaults().withRedelivery(TaskQueueConfig.defaults().withMaxAttempts(maxAttempts)
                .withDefaultLease(LEASE));
    }

    @Test
    void membersLeaseAckAndGetANackedRecordAgainCounted() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue events = mikyu.createLog("events");
            events.appendBatch(List.of(Entry.of("a"), Entry.of("b"), Entry.of("c")));
            SharedGroup workers = events.sharedGroup("workers", config(5));
            List<SharedGroup.Delivery> got = fetchUntil(workers, 3);
            assertThat(got).extracting(d -> d.record().payloadAsString()).containsExactly("a", "b", "c");
            assertThat(got).extracting(SharedGroup.Delivery::deliveryCount).containsOnly(1);

            workers.ack(got.get(0).token());
            workers.ack(got.get(2).token());
            workers.nack(got.get(1).token(), Duration.ZERO, "again");
            SharedGroup.Delivery again = fetchUntil(workers, 1).get(0);
            assertThat(again.record().payloadAsString()).isEqualTo("b");
            assertThat(again.deliveryCount()).isEqualTo(2);
            workers.ack(again.token());
            assertThatThrownBy(() -> workers.ack(again.token())).isInstanceOf(StaleLeaseException.class);
            // The group's committed offset is the share coordinator's stored start offset, which Kafka moves on its
            // own schedule (docs/kafka.md): here only that it never passes an unfinished record.
            assertThat(workers.committedOffset()).isBetween(0L, 3L);
            assertThat(events.groups()).containsExactly("workers");
            // Plain reads of the log are not affected by the group.
            assertThat(events.read(0, 10)).hasSize(3);
        }
    }

    @Test
    void aRecordPastItsAttemptsGoesToTheGroupsDeadLetterQueue() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue events = mikyu.createLog("prices");
            long offset = events.append(Entry.of("poison"));
            SharedGroup workers = events.sharedGroup("audit", config(1));
            workers.nack(fetchUntil(workers, 1).get(0).token(), Duration.ZERO, "cannot parse");

            TaskQueue dlq = workers.deadLetters();
            assertThat(dlq.name()).isEqualTo("prices:audit/dlq");
            LeasedTask dead = dlq.dequeue(1, LEASE, WAIT, null).get(0);
            assertThat(dead.payloadAsString()).isEqualTo("poison");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_QUEUE)).isEqualTo("prices");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_ID)).isEqualTo(Long.toString(offset));
            assertThat(dead.headers().getString(TaskQueue.DLQ_REASON)).isEqualTo("cannot parse");
            dlq.ack(dead.token());
        }
    }

    @Test
    void aGroupMadeAtTheLatestSeesOnlyWhatCameAfterIt() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue events = mikyu.createLog("late");
            events.append(Entry.of("before"));
            SharedGroup latest = events.sharedGroup("latest", config(3), null, OffsetReset.latest());
            assertThat(latest.committedOffset()).isEqualTo(1);
            events.append(Entry.of("after"));
            assertThat(fetchUntil(latest, 1)).extracting(d -> d.record().payloadAsString()).containsExactly("after");
        }
    }

    @Test
    void aFilterIsRefusedClearly() {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue events = mikyu.createLog("filtered");
            assertThatThrownBy(() -> events.sharedGroup("f", config(3), HeaderEquals.of("type", "b")))
                    .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("selector");
        }
    }

    @Test
    void aFirstFetchOfOneRecordDoesNotHoldTheNextFetchesToOneRecordEach() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue events = mikyu.createLog("orders");
            List<Entry> entries = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                entries.add(Entry.of("order-" + i));
            }
            events.appendBatch(entries);
            SharedGroup subscriber = events.sharedGroup("durable", config(5));
            // What a JMS consumer does first: ask for one message.
            List<SharedGroup.Delivery> got = new ArrayList<>(fetchUntil(subscriber, 1));
            subscriber.ack(got.get(0).token());

            // Then for more: one fetch brings more than one record (the member made by the first fetch acquired
            // ahead; a member that acquired one record per share fetch made a durable subscriber crawl).
            List<SharedGroup.Delivery> next = subscriber.fetch(19, LEASE, WAIT);
            assertThat(next).as("records of one fetch after a fetch of one").hasSizeGreaterThan(1);
            got.addAll(next);
            got.addAll(fetchUntil(subscriber, 20 - got.size()));
            assertThat(got).extracting(d -> d.record().payloadAsString()).doesNotHaveDuplicates().hasSize(20);
            assertThat(got).extracting(SharedGroup.Delivery::deliveryCount).containsOnly(1);
            subscriber.ack(got.subList(1, got.size()).stream().map(SharedGroup.Delivery::token).toList());
            assertThat(subscriber.fetch(20, LEASE, Duration.ofSeconds(2))).as("every record acked").isEmpty();
        }
    }

    private static List<SharedGroup.Delivery> fetchUntil(SharedGroup group, int count) throws InterruptedException {
        List<SharedGroup.Delivery> got = new ArrayList<>();
        long giveUpAt = System.nanoTime() + WAIT.toNanos();
        while (got.size() < count && System.nanoTime() - giveUpAt < 0) {
            got.addAll(group.fetch(count - got.size(), LEASE, Duration.ofSeconds(5)));
        }
        assertThat(got).as(count + " records within " + WAIT).hasSize(count);
        return got;
    }
}
