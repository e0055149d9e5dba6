package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A task handed out again says whether its previous counted lease ran out with no word from its holder (the holder
 * may have died of it): a lease that ended does, a nack does not, and giving it back undelivered keeps what it was.
 * {@link TaskQueue#holds} tells whether a lease is still held.
 */
@Timeout(60)
class LeaseRanOutTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    @Test
    void aLeaseThatRanOutIsToldUntilTheNextNack() throws Exception {
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().timeSource(clock).build())) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults()
                    .withBackoff(Duration.ZERO, 1.0, Duration.ZERO).withMaxAttempts(10));
            q.enqueue(Task.of("work"));

            LeasedTask first = take(q);
            assertThat(first.previousLeaseRanOut()).as("first delivery").isFalse();
            assertThat(q.holds(first.token())).isTrue();

            clock.advance(LEASE.plusSeconds(1));
            LeasedTask afterRunOut = take(q);
            assertThat(q.holds(first.token())).as("the ended lease").isFalse();
            assertThat(afterRunOut.attempt()).isEqualTo(2);
            assertThat(afterRunOut.previousLeaseRanOut()).as("after a lease that ran out").isTrue();

            q.returnUndelivered(List.of(afterRunOut.token()));
            assertThat(q.holds(afterRunOut.token())).as("given back").isFalse();
            LeasedTask afterReturn = take(q);
            assertThat(afterReturn.attempt()).isEqualTo(2);
            assertThat(afterReturn.previousLeaseRanOut()).as("giving back undelivered keeps it").isTrue();

            q.nack(afterReturn.token(), Duration.ZERO, "failed");
            LeasedTask afterNack = take(q);
            assertThat(afterNack.attempt()).isEqualTo(3);
            assertThat(afterNack.previousLeaseRanOut()).as("after a nack").isFalse();

            q.ack(afterNack.token());
            assertThat(q.holds(afterNack.token())).as("acked").isFalse();
        }
    }

    private static LeasedTask take(TaskQueue q) throws InterruptedException {
        List<LeasedTask> taken = q.dequeue(1, LEASE, Duration.ZERO, null);
        assertThat(taken).hasSize(1);
        return taken.get(0);
    }
}
