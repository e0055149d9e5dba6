package io.mikyu.engine.shared;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.TaskCounts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.mikyu.engine.shared.SharedTesting.config;
import static io.mikyu.engine.shared.SharedTesting.fill;
import static org.assertj.core.api.Assertions.assertThat;

/** Many members of one shared group split a log between them: every record once, and the position follows. */
@Timeout(60)
class SharedGroupDeliveryTest {

    private static final int RECORDS = 10_000;
    private static final int MEMBERS = 4;

    @TempDir
    Path data;

    /** What one member saw: offset → delivery count, and how many it processed. */
    private record MemberResult(int processed, List<Long> offsets) {
    }

    @Test
    void fourMembersAckingEverythingGetEachRecordExactlyOnceAndTheCommittedOffsetReachesTheEnd() throws Exception {
        Map<Long, Integer> deliveries = new ConcurrentHashMap<>();
        List<MemberResult> results = new ArrayList<>();
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("orders");
            SharedGroup group = q.sharedGroup("billing", config(1_000, 10));
            AtomicInteger acked = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(MEMBERS + 1);
            try {
                // records keep arriving while the members consume
                Future<?> producer = pool.submit(() -> {
                    for (int i = 0; i < RECORDS; i += 500) {
                        fill(q, i, i + 500);
                    }
                    return null;
                });
                List<Future<MemberResult>> members = new ArrayList<>();
                for (int m = 0; m < MEMBERS; m++) {
                    int member = m;
                    members.add(pool.submit(() -> {
                        List<Long> seen = new ArrayList<>();
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
                        while (acked.get() < RECORDS && System.nanoTime() < deadline) {
                            List<SharedGroup.Delivery> ds = group.fetch(50, Duration.ofSeconds(30),
                                    Duration.ofMillis(100));
                            List<LeaseToken> tokens = new ArrayList<>();
                            for (SharedGroup.Delivery d : ds) {
                                long offset = d.record().offset();
                                deliveries.merge(offset, 1, Integer::sum);
                                assertThat(d.record().payloadAsString()).isEqualTo("r" + offset);
                                assertThat(d.deliveryCount()).isEqualTo(1);
                                seen.add(offset);
                                tokens.add(d.token());
                            }
                            if (member % 2 == 0) {
                                group.ack(tokens); // batch ack
                            } else {
                                tokens.forEach(group::ack); // one by one
                            }
                            acked.addAndGet(tokens.size());
                        }
                        return new MemberResult(seen.size(), seen);
                    }));
                }
                producer.get(30, TimeUnit.SECONDS);
                for (Future<MemberResult> f : members) {
                    results.add(f.get(45, TimeUnit.SECONDS));
                }
            } finally {
                pool.shutdownNow();
            }

            assertThat(deliveries).as("every record delivered").hasSize(RECORDS);
            assertThat(deliveries.entrySet()).as("no record delivered twice")
                    .allSatisfy(e -> assertThat(e.getValue()).as("deliveries of %d", e.getKey()).isEqualTo(1));
            assertThat(deliveries.keySet()).allSatisfy(o -> assertThat(o).isBetween(0L, (long) RECORDS - 1));
            assertThat(results.stream().mapToInt(MemberResult::processed).sum()).isEqualTo(RECORDS);
            assertThat(results).as("work was shared between members")
                    .filteredOn(r -> r.processed() > 0).hasSizeGreaterThanOrEqualTo(2);
            assertThat(group.committedOffset()).isEqualTo(RECORDS);
            assertThat(group.lag()).isZero();
            assertThat(group.counts()).isEqualTo(new TaskCounts(0, 0, 0));
            assertThat(group.fetch(10, Duration.ofSeconds(30), Duration.ofMillis(100))).isEmpty();
        }

        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log("orders");
            assertThat(q.groups()).containsExactly("billing");
            SharedGroup group = q.sharedGroup("billing", config(1_000, 10));
            assertThat(group.committedOffset()).as("committed offset after reopen").isEqualTo(RECORDS);
            assertThat(group.lag()).isZero();
            assertThat(group.counts().depth()).isZero();
            assertThat(group.fetch(100, Duration.ofSeconds(30), Duration.ofMillis(300)))
                    .as("nothing is redelivered after reopen when everything was acked").isEmpty();

            // and the group goes on with new records from where it was
            fill(q, RECORDS, RECORDS + 3);
            List<SharedGroup.Delivery> next = group.fetch(3, Duration.ofSeconds(30), Duration.ZERO);
            assertThat(SharedTesting.offsets(next)).containsExactly((long) RECORDS, RECORDS + 1L, RECORDS + 2L);
        }
    }

    @Test
    void aGroupCreatedOnAQueueWithRecordsStartsAtTheQueuesStart() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("orders");
            fill(q, 0, 5);
            SharedGroup group = q.sharedGroup("late", config());
            assertThat(group.committedOffset()).isZero();
            assertThat(group.lag()).isEqualTo(5);
            List<SharedGroup.Delivery> ds = group.fetch(10, Duration.ofSeconds(30), Duration.ZERO);
            assertThat(SharedTesting.offsets(ds)).containsExactly(0L, 1L, 2L, 3L, 4L);
            assertThat(ds).allSatisfy(d -> assertThat(d.deliveryCount()).isEqualTo(1));
            assertThat(ds).allSatisfy(d -> assertThat(d.leaseExpiresAt())
                    .isGreaterThan(System.currentTimeMillis() + 20_000));
        }
    }
}
