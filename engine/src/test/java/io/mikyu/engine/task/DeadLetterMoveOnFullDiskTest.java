package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StorageFullException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
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
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * A nack at the last attempt moves the task to the dead-letter queue; when that move cannot be written the nack
 * says so, and the task is neither lost nor reported moved: it stays in its queue, is delivered again, and its next
 * nack moves it once the disk has room.
 */
@Timeout(60)
class DeadLetterMoveOnFullDiskTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    @Test
    void aNackWhoseMoveCannotBeWrittenFailsAndTheTaskStaysInItsQueue() throws Exception {
        try (FaultyFileChannels disk = FaultyFileChannels.install(data);
             Mikyu store = Mikyu.open(data, EngineConfig.builder().timeSource(clock).minFreeDiskBytes(0).build())) {
            TaskQueue q = store.getOrCreateTaskQueue("jobs", TaskQueueConfig.defaults().withMaxAttempts(1));
            q.enqueue(Task.of("poison"));
            LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);

            disk.diskFullAfter(0);
            Throwable thrown = catchThrowable(() -> q.nack(t.token(), Duration.ZERO, "bad input"));
            assertThat(causes(thrown)).as("the nack says the move was not written")
                    .anyMatch(StorageFullException.class::isInstance);
            assertThat(q.deadLetters().counts().ready()).as("nothing in the dead-letter queue yet").isZero();

            disk.heal();
            clock.advance(Duration.ofSeconds(2)); // past the short wait before it is delivered again
            LeasedTask again = await().atMost(Duration.ofSeconds(30))
                    .until(() -> q.dequeue(1, LEASE, Duration.ZERO, null), l -> !l.isEmpty()).get(0);
            assertThat(again.payloadAsString()).as("still in its queue, delivered again").isEqualTo("poison");
            assertThat(again.attempt()).isEqualTo(2);
            q.nack(again.token(), Duration.ZERO, "bad input");
            assertThat(q.deadLetters().counts().ready()).as("moved, now that the disk has room").isEqualTo(1);
            assertThat(q.counts().ready() + q.counts().scheduled() + q.counts().inFlight()).isZero();
        }
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts().ready() + q.counts().scheduled() + q.counts().inFlight()).as("not back after a reopen").isZero();
            LeasedTask dead = q.deadLetters().dequeue(1, LEASE, Duration.ZERO, null).get(0);
            assertThat(dead.payloadAsString()).isEqualTo("poison");
        }
    }

    private static List<Throwable> causes(Throwable t) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable c = t; c != null && !chain.contains(c); c = c.getCause()) {
            chain.add(c);
        }
        return chain;
    }
}
