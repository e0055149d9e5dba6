package io.mikyu.broker.server;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a consumer stream pushed to a connection that ends without closing the stream stays leased only until its
 * lease ends, whatever ended it: a malformed frame, a connection closed after a CREDIT for a stream the broker does
 * not have, a connection closed while the broker is still pushing. Then nothing is leased any more, and the tasks
 * come back with the delivery counted.
 */
@Timeout(120)
class PushedLeasesEndTest {

    private static final long LEASE_MILLIS = 1_000;
    private static final int STREAM = 7;
    private static final int TASKS = 500;
    private static final Duration AT_MOST = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** The store's clock: the leases end when the test moves it. */
    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    @Test
    void aStreamEndedByAMalformedFrameLeavesNothingLeasedOnceItsLeasesEnd() throws Exception {
        run(consumer -> consumer.credit(STREAM, 10_000)); // more than was ever pushed
    }

    @Test
    void aConnectionClosedAfterACreditForAnUnknownStreamLeavesNothingLeasedOnceItsLeasesEnd() throws Exception {
        run(consumer -> consumer.credit(99, 1));
    }

    @Test
    void aConnectionClosedWhileTheBrokerPushesLeavesNothingLeasedOnceItsLeasesEnd() throws Exception {
        // taken some and asked for more: the broker is pushing when the connection goes
        run(consumer -> consumer.credit(STREAM, 1));
    }

    /** Opens a stream on a raw connection, waits for a delivery, does {@code then}, and closes the socket. */
    private void run(IoAction then) throws Exception {
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE.toBuilder().timeSource(clock)
                .build(), o -> o)) {
            Mikyu store = broker.store();
            TaskQueue jobs = store.createTaskQueue("jobs");
            List<Task> tasks = new ArrayList<>();
            for (int i = 0; i < TASKS; i++) {
                tasks.add(Task.of("job " + i));
            }
            jobs.enqueueBatch(tasks);
            try (RawConsumer consumer = new RawConsumer(broker.endpoint().port())) {
                consumer.streamTasks("jobs", STREAM, LEASE_MILLIS, 64);
                consumer.nextDelivery();
                assertThat(jobs.counts().inFlight()).as("pushed and leased").isPositive();
                then.run(consumer);
            }
            await("no stream left open").atMost(AT_MOST).until(() -> broker.server().openStreams() == 0);
            assertThat(jobs.counts().inFlight()).as("what was pushed, leased until its lease ends").isPositive();
            clock.advance(Duration.ofMillis(LEASE_MILLIS));
            await("no task left leased after the leases ended").atMost(AT_MOST)
                    .until(() -> jobs.counts().inFlight() == 0);
            // Every task is still there, and those pushed come back as delivered once already (after the queue's
            // retry backoff).
            clock.advance(TaskQueueConfig.defaults().backoff(1));
            List<LeasedTask> all = new ArrayList<>();
            long until = System.nanoTime() + AT_MOST.toNanos();
            while (all.size() < TASKS && System.nanoTime() < until) {
                all.addAll(jobs.dequeue(TASKS, Duration.ofMinutes(1), Duration.ofMillis(200), null));
            }
            assertThat(all).hasSize(TASKS);
            assertThat(all).as("pushed tasks, their delivery counted").anyMatch(t -> t.attempt() > 1);
        }
    }

    @FunctionalInterface
    private interface IoAction {
        void run(RawConsumer consumer) throws IOException;
    }
}
