package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
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

/** {@link TaskQueue#extend(List, Duration)}: many leases lengthened with one write; one that ended is told apart. */
@Timeout(60)
class ExtendManyTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final int TASKS = 20;

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    @Test
    void manyLeasesAreExtendedWithOneWrite() throws Exception {
        try (FaultyFileChannels disk = FaultyFileChannels.install(data);
             Mikyu store = Mikyu.open(data, EngineConfig.builder().timeSource(clock).build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            List<Task> tasks = new ArrayList<>();
            for (int i = 0; i < TASKS; i++) {
                tasks.add(Task.of("work " + i));
            }
            q.enqueueBatch(tasks);
            List<LeasedTask> held = q.dequeue(TASKS, LEASE, Duration.ZERO, null);
            assertThat(held).hasSize(TASKS);
            q.ack(held.get(0).token());
            List<LeaseToken> tokens = new ArrayList<>();
            held.forEach(t -> tokens.add(t.token()));

            clock.advance(LEASE.minusSeconds(1));
            long writesBefore = disk.writes();
            long[] until = q.extend(tokens, LEASE);
            assertThat(disk.writes() - writesBefore).as("writes").isEqualTo(1);
            assertThat(until[0]).as("the acked one").isEqualTo(-1);
            for (int i = 1; i < TASKS; i++) {
                assertThat(until[i]).as("extended").isGreaterThan(held.get(i).leaseExpiresAt());
            }

            clock.advance(Duration.ofSeconds(2));   // past the first lease, within the extended one
            assertThat(q.dequeue(TASKS, LEASE, Duration.ZERO, null)).as("nothing came back").isEmpty();
            assertThat(q.counts().inFlight()).isEqualTo(TASKS - 1);
        }
    }
}
