package io.mikyu.broker.server;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import io.mikyu.engine.support.SteppableTimeSource;
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

    /** The store's clock: leases run out only as the test moves it, half a lease at a time. */
    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    @Test
    void theLeasesOfABufferAreRenewedWithOneWritePerRound() throws Exception {
        try (FaultyFileChannels disk = FaultyFileChannels.install(dir); RunningBroker broker = new RunningBroker(dir,
                RunningBroker.ENGINE.toBuilder().timeSource(clock).build(), o -> o)) {
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
                // Nothing is taken from the buffer: only the broker's renewals write from here on. Three lease
                // lengths pass, half a lease at a time, each followed by a round of the stream timer (which renews
                // what is half gone): six rounds, each renewing every buffered lease.
                long writesBefore = disk.writes();
                for (int round = 0; round < 6; round++) {
                    clock.advance(Duration.ofMillis(LEASE_MILLIS / 2 + 1));
                    broker.server().tickStreamsNow();
                }
                assertThat(disk.writes() - writesBefore).as("writes renewing %d buffered leases in six rounds", ITEMS)
                        .isLessThan(ITEMS);
                TaskCounts counts = jobs.counts();
                assertThat(counts.inFlight()).as("all still leased, renewed").isEqualTo(ITEMS);
                assertThat(counts.ready() + counts.scheduled()).as("none came back").isZero();
            }
        }
    }
}
