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
 * A poison: every consumer handed it dies before it can acknowledge it. The messages prefetched behind it the first
 * time are counted with it (the broker cannot tell them from one the application took), but from then on it goes
 * out alone, so only the poison reaches the dead-letter queue; its neighbours are delivered, counted once more.
 * Each consumer is a raw connection that streams the queue with room for all of them, takes the first message
 * (CREDIT 1) and is gone (the socket closed without closing the stream).
 */
@Timeout(120)
class PoisonNeighboursTest {

    private static final long LEASE_MILLIS = 1_000;
    private static final int MAX_ATTEMPTS = 3;
    private static final int NEIGHBOURS = 3;
    private static final Duration AT_MOST = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** The store's clock: the dead consumers' leases end when the test moves it. */
    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    @Test
    void onlyThePoisonReachesTheDeadLetterQueue() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE.toBuilder().timeSource(clock)
                .build(), o -> o)) {
            Mikyu store = broker.store();
            TaskQueue work = store.createTaskQueue("work", TaskQueueConfig.defaults().withMaxAttempts(MAX_ATTEMPTS)
                    .withBackoff(Duration.ZERO, 1.0, Duration.ZERO));
            List<Task> tasks = new ArrayList<>();
            tasks.add(Task.of("poison"));
            for (int i = 1; i <= NEIGHBOURS; i++) {
                tasks.add(Task.of("n" + i));
            }
            work.enqueueBatch(tasks);

            for (int round = 1; round <= MAX_ATTEMPTS; round++) {
                LeasedTask first = consumeFirstAndDie(broker);
                assertThat(first.payloadAsString()).as("round %d: first pushed", round).isEqualTo("poison");
                assertThat(first.attempt()).as("round %d: the poison's delivery count", round).isEqualTo(round);
                await("round " + round + ": the broker saw the consumer go").atMost(AT_MOST)
                        .until(() -> broker.server().openStreams() == 0);
                assertThat(work.counts().inFlight()).as("round %d: what it was pushed, leased until the leases end",
                        round).isPositive();
                clock.advance(Duration.ofMillis(LEASE_MILLIS));
                await("round " + round + ": the dead consumer's leases end").atMost(AT_MOST)
                        .until(() -> work.counts().inFlight() == 0);
            }

            TaskQueue dlq = work.deadLetters();
            await("the poison dead-lettered").atMost(AT_MOST).until(() -> dlq.counts().ready() >= 1);
            assertThat(dlq.browse(10, null)).extracting(LeasedTask::payloadAsString).containsExactly("poison");
            List<LeasedTask> rest = work.dequeue(10, Duration.ofMinutes(1), Duration.ofSeconds(10), null);
            assertThat(rest).extracting(LeasedTask::payloadAsString).containsExactly("n1", "n2", "n3");
            assertThat(rest).as("counted once with the poison, then delivered")
                    .allSatisfy(t -> assertThat(t.attempt()).isEqualTo(2));
        }
    }

    /** A consumer streaming {@code work}: takes the first message pushed and dies (its socket closed). */
    private static LeasedTask consumeFirstAndDie(RunningBroker broker) throws IOException {
        try (RawConsumer consumer = new RawConsumer(broker.endpoint().port())) {
            consumer.streamTasks("work", 7, LEASE_MILLIS, 64);
            List<LeasedTask> delivery = consumer.nextDelivery();
            assertThat(delivery).as("items in the first delivery").isNotEmpty();
            consumer.credit(7, 1);   // handed to the application
            return delivery.get(0);
        }
    }
}
