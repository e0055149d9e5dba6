package io.mikyu.engine.shared;

import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.StoreClosedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.mikyu.engine.shared.SharedTesting.LONG_LEASE;
import static io.mikyu.engine.shared.SharedTesting.config;
import static io.mikyu.engine.shared.SharedTesting.fill;
import static io.mikyu.engine.shared.SharedTesting.offsets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Deleting a shared group (what a JMS unsubscribe needs) removes its state, offset and dead letters for good. */
class SharedGroupDeletionTest {

    @TempDir
    Path data;

    @Test
    void aDeletedSharedGroupIsGoneWithItsStateAndDeadLettersAndANewOneStartsAfresh() throws Exception {
        Path groupDir = data.resolve("log").resolve("events").resolve("shared-groups").resolve("g");
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 20);
            SharedGroup g = q.sharedGroup("g", config(100, 1));
            List<SharedGroup.Delivery> first = g.fetch(5, LONG_LEASE, Duration.ZERO);
            g.ack(first.get(0).token());
            g.nack(first.get(1).token(), Duration.ZERO, "bad");
            assertThat(g.deadLetters().counts().ready()).isEqualTo(1);
            assertThat(store.list(QueueKind.TASK)).contains("events:g/dlq");

            assertThat(q.deleteGroup("g")).isTrue();

            assertThat(q.groups()).doesNotContain("g");
            assertThat(store.list(QueueKind.TASK)).doesNotContain("events:g/dlq");
            assertThatThrownBy(() -> store.taskQueue("events:g/dlq")).isInstanceOf(QueueNotFoundException.class);
            assertThat(Files.exists(groupDir)).isFalse();
            assertThatThrownBy(() -> g.fetch(1, LONG_LEASE, Duration.ZERO)).isInstanceOf(StoreClosedException.class);
            assertThat(q.deleteGroup("g")).as("deleting twice").isFalse();

            SharedGroup again = q.sharedGroup("g", config(100, 1));
            assertThat(offsets(again.fetch(100, LONG_LEASE, Duration.ZERO))).as("a new group starts at the start")
                    .hasSize(20).startsWith(0L, 1L);
        }
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log("events");
            assertThat(q.groups()).containsExactly("g");
            assertThat(q.sharedGroup("g", config(100, 1)).counts().inFlight()).as("the new group's leases")
                    .isEqualTo(20);
        }
    }
}
