package io.mikyu.broker.server;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reader far behind asks for everything; the broker answers with a bounded slice ({@link Reply#MAX_RESULT_BYTES})
 * and the reader goes on from where it ended, so no answer holds the backlog in broker memory.
 */
class LargeResultTest {

    private static final int RECORD_BYTES = 64 << 10;
    private static final int RECORDS = 160;                        // 10 MiB
    private static final long MOST_PER_ANSWER = Reply.MAX_RESULT_BYTES / RECORD_BYTES + 1;

    @TempDir
    Path dir;

    @Test
    void aReadForEverythingIsAnsweredInBoundedSlicesThatTogetherHoldEveryRecord() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            LogQueue log = filled(broker.dial());

            List<Integer> sizes = new ArrayList<>();
            long next = 0;
            while (next < RECORDS) {
                List<Record> slice = log.read(next, Integer.MAX_VALUE);
                assertThat(slice).isNotEmpty().first().extracting(Record::offset).isEqualTo(next);
                sizes.add(slice.size());
                next = slice.get(slice.size() - 1).offset() + 1;
            }
            List<Record> polled = log.poll(0, Integer.MAX_VALUE, Duration.ZERO);

            assertThat(sizes).allMatch(n -> n <= MOST_PER_ANSWER).hasSizeGreaterThan(1);
            assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(RECORDS);
            assertThat(polled).hasSizeBetween(1, (int) MOST_PER_ANSWER);
        }
    }

    @Test
    void aConsumerGroupFarBehindPollsBoundedSlices() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            ConsumerGroup group = filled(broker.dial()).group("late");
            long read = 0;
            while (read < RECORDS) {
                List<Record> slice = group.poll(Integer.MAX_VALUE, Duration.ofSeconds(1));
                assertThat(slice).isNotEmpty().hasSizeLessThanOrEqualTo((int) MOST_PER_ANSWER);
                read += slice.size();
                group.commit(slice.get(slice.size() - 1).offset() + 1);
            }
            assertThat(read).isEqualTo(RECORDS);
        }
    }

    @Test
    void aDequeueForEverythingLeasesOnlyTheSliceItAnswersWith() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            io.mikyu.engine.TaskQueue local = broker.store().createTaskQueue("backlog");
            List<io.mikyu.engine.Task> tasks = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                tasks.add(io.mikyu.engine.Task.of(new byte[RECORD_BYTES]));
            }
            local.enqueueBatch(tasks);
            io.mikyu.engine.TaskQueue remote = broker.dial("?streams=false").taskQueue("backlog");
            List<io.mikyu.engine.LeasedTask> got = remote.dequeue(RECORDS, Duration.ofMinutes(1), Duration.ZERO,
                    null);
            assertThat(got).hasSizeBetween(1, (int) MOST_PER_ANSWER);
            assertThat(local.counts().inFlight()).as("the rest is not left leased").isEqualTo(got.size());
            assertThat(local.counts().ready()).isEqualTo(RECORDS - got.size());
            assertThat(local.dequeue(RECORDS, Duration.ofMinutes(1), Duration.ZERO, null))
                    .extracting(io.mikyu.engine.LeasedTask::attempt).as("given back, not counted").containsOnly(1);
        }
    }

    @Test
    void aSharedFetchForEverythingLeasesOnlyTheSliceItAnswersWith() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            filled(broker.store());
            io.mikyu.engine.SharedGroup group = broker.dial("?streams=false").log("backlog").sharedGroup("all",
                    io.mikyu.engine.SharedGroupConfig.defaults().withMaxInFlight(1000));
            List<io.mikyu.engine.SharedGroup.Delivery> got = group.fetch(RECORDS, Duration.ofMinutes(1),
                    Duration.ofSeconds(1));
            assertThat(got).hasSizeBetween(1, (int) MOST_PER_ANSWER);
            assertThat(group.counts().inFlight()).as("the rest is not left leased").isEqualTo(got.size());
        }
    }

    private static LogQueue filled(Mikyu client) {
        LogQueue log = client.createLog("backlog");
        List<Entry> batch = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            batch.add(Entry.of(new byte[RECORD_BYTES]));
            if (batch.size() == 16) {
                log.appendBatch(batch);
                batch.clear();
            }
        }
        return log;
    }
}
