package io.mikyu.engine.upgrade;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.Record;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.TaskQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A data directory written by mikyu with store format 1 ({@link Format1Store} says how and what it holds), opened by
 * this one: the shared groups' folder is renamed, and everything in it, and in the transaction log, is still there.
 */
@Timeout(60)
class Format1UpgradeTest {

    private static final Duration LONG_LEASE = Duration.ofMinutes(5);

    @TempDir
    Path data;

    @Test
    void aFormat1StoreOpensWithItsSharedGroupsItsPreparedBranchAndItsCommittedDeadLetterMove() throws Exception {
        unzip("/stores/format-1.zip", data);
        Path events = data.resolve("log").resolve("events");
        assertThat(data.resolve("FORMAT")).as("the fixture is of format 1").hasContent("mikyu-store 1");
        assertThat(events.resolve("shared").resolve("g").resolve("queue.conf")).as("the fixture's layout").exists();

        List<SharedGroup.Delivery> delivered = new ArrayList<>();
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(data.resolve("FORMAT")).hasContent("mikyu-store 2");
            assertThat(events.resolve("shared")).doesNotExist();
            assertThat(events.resolve("shared-groups").resolve("g").resolve("queue.conf")).exists();
            assertThat(events.resolve("shared-groups").resolve("dl").resolve("queue.conf")).exists();

            List<PreparedTransaction> inDoubt = store.inDoubtTransactions();
            assertThat(inDoubt).hasSize(1);
            assertThat(inDoubt.get(0).xid()).isEqualTo(Format1Store.XID);
            assertThat(inDoubt.get(0).queues()).containsExactly("events", "out");

            LogQueue log = store.log("events");
            assertThat(log.groups()).contains("ex", "g", "dl");
            assertThat(log.group("ex").position()).as("an exclusive group's position").isEqualTo(5);
            SharedGroup g = log.sharedGroup("g", Format1Store.groupConfig());
            assertThat(g.committedOffset()).as("r0 to r2 acked, r3 not").isEqualTo(3);
            delivered.addAll(fetchN(g, 6, Duration.ofSeconds(20)));
            assertThat(delivered).extracting(d -> d.record().offset())
                    .as("r3 back after its lease, r4 held by the prepared branch, r5 to r9 new")
                    .containsExactlyInAnyOrder(3L, 5L, 6L, 7L, 8L, 9L);
            assertThat(delivered).allSatisfy(d -> assertThat(d.deliveryCount())
                    .as("deliveries of r%d", d.record().offset()).isEqualTo(d.record().offset() == 3 ? 3 : 1));
            assertThat(g.fetch(10, LONG_LEASE, Duration.ofMillis(300))).as("acked and held records stay away")
                    .isEmpty();

            SharedGroup dl = log.sharedGroup("dl", Format1Store.deadLetterConfig());
            TaskQueue dlq = dl.deadLetters();
            assertThat(dlq.counts().depth()).as("the committed move was applied once").isEqualTo(1);
            LeasedTask dead = dlq.dequeue(1, LONG_LEASE, Duration.ofSeconds(5), null).get(0);
            assertThat(new String(dead.payload(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("r0");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_ID)).isEqualTo("0");
            assertThat(dead.headers().getString(TaskQueue.DLQ_REASON)).isEqualTo(Format1Store.DEAD_LETTER_REASON);
            assertThat(fetchN(dl, 9, Duration.ofSeconds(20))).extracting(d -> d.record().offset())
                    .as("the dead letter is not delivered again")
                    .containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
            assertThat(dl.fetch(10, LONG_LEASE, Duration.ofMillis(300))).isEmpty();

            store.commitPrepared(Format1Store.XID);
            assertThat(store.inDoubtTransactions()).isEmpty();
            assertThat(store.log("out").read(0, 10)).extracting(Record::payloadAsString).containsExactly("o1");
            assertThat(g.committedOffset()).as("r4 acked by the commit, r3 still leased").isEqualTo(3);
            g.ack(delivered.stream().map(SharedGroup.Delivery::token).toList());
            assertThat(g.committedOffset()).isEqualTo(10);
        }

        try (Mikyu store = Mikyu.open(data)) {
            assertThat(data.resolve("FORMAT")).hasContent("mikyu-store 2");
            assertThat(store.inDoubtTransactions()).isEmpty();
            assertThat(store.log("out").read(0, 10)).extracting(Record::payloadAsString).containsExactly("o1");
            SharedGroup g = store.log("events").sharedGroup("g", Format1Store.groupConfig());
            assertThat(g.committedOffset()).isEqualTo(10);
            assertThat(g.fetch(10, LONG_LEASE, Duration.ofMillis(300))).isEmpty();
            assertThat(store.log("events").sharedGroup("dl", Format1Store.deadLetterConfig()).deadLetters().counts()
                    .depth()).isEqualTo(1);
        }
    }

    static List<SharedGroup.Delivery> fetchN(SharedGroup g, int n, Duration timeout) throws InterruptedException {
        List<SharedGroup.Delivery> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (out.size() < n && System.nanoTime() < deadline) {
            out.addAll(g.fetch(n - out.size(), LONG_LEASE, Duration.ofMillis(200)));
        }
        return out;
    }

    static void unzip(String resource, Path into) throws IOException {
        try (InputStream in = Format1UpgradeTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            try (ZipInputStream zip = new ZipInputStream(in)) {
                ZipEntry e;
                while ((e = zip.getNextEntry()) != null) {
                    Path target = into.resolve(e.getName()).normalize();
                    if (!target.startsWith(into)) {
                        throw new IOException("entry outside the directory: " + e.getName());
                    }
                    if (e.isDirectory()) {
                        Files.createDirectories(target);
                    } else {
                        Files.createDirectories(target.getParent());
                        Files.copy(zip, target);
                    }
                }
            }
        }
    }
}
