package io.mikyu.broker.server;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The broker renews the leases of what waits in a client's buffer with one write per stream and round, not one per
 * item: renewing one by one, each waiting for its own write, the stream timer fell behind the leases on a slow disk
 * and they ended while the items still waited, so a second copy went out with a higher delivery count while the
 * first, with the lower count, could still be handed to the application.
 */
@Timeout(120)
class StreamRenewalWritesTest {

    private static final long LEASE_MILLIS = 1_000;
    private static final int ITEMS = 40;

    @TempDir
    Path dir;

    @Test
    void theLeasesOfABufferAreRenewedWithOneWritePerRound() throws Exception {
        try (FaultyFileChannels disk = FaultyFileChannels.install(dir); RunningBroker broker = new RunningBroker(dir)) {
            Mikyu store = broker.store();
            TaskQueue jobs = store.createTaskQueue("jobs");
            List<Task> tasks = new ArrayList<>();
            for (int i = 0; i < ITEMS; i++) {
                tasks.add(Task.of("job " + i));
            }
            jobs.enqueueBatch(tasks);
            try (RawConsumer consumer = new RawConsumer(broker.endpoint().port())) {
                consumer.streamTasks("jobs", 3, LEASE_MILLIS, 64);
                List<LeasedTask> buffered = new ArrayList<>();
                while (buffered.size() < ITEMS) {
                    buffered.addAll(consumer.nextDelivery());
                }
                // Nothing is taken from the buffer: only the broker's renewals write from here on. Watch them for
                // three lease lengths (renewed at half a lease: about six rounds), or until they took a write each.
                long writesBefore = disk.writes();
                long until = System.nanoTime() + Duration.ofMillis(3 * LEASE_MILLIS).toNanos();
                while (disk.writes() - writesBefore < ITEMS && System.nanoTime() < until) {
                    Thread.sleep(20);
                }
                assertThat(disk.writes() - writesBefore).as("writes renewing %d buffered leases", ITEMS)
                        .isLessThan(ITEMS);
                TaskCounts counts = jobs.counts();
                assertThat(counts.inFlight()).as("all still leased, renewed").isEqualTo(ITEMS);
                assertThat(counts.ready() + counts.scheduled()).as("none came back").isZero();
            }
        }
    }
}
