package io.mikyu.engine.internal.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.format.TaskRecordDescriptor;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A give-back, a nack or a renewal is decided under the queue's lock and its state record written outside it. If the
 * lease it names ends meanwhile and the task is leased again (a thread descheduled between the two on a loaded
 * machine), its record reaches the log after the newer lease's. The live queue refuses it then; a restart must not
 * apply it either: a give-back's lowered attempt count would make the next delivery carry a lower count than the one
 * already handed out, while the newer lease's holder still has the message. Each test writes the late record
 * through the ledger's own write path, in the order that race leaves in the log, then reopens the store.
 */
@Timeout(60)
class LateStateRecordReplayTest {

    private static final Duration LEASE = Duration.ofSeconds(5);

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    @Test
    void aGiveBackOfAnEndedLeaseWrittenAfterTheNextLeaseLowersNoCountAfterARestart() throws Exception {
        LeaseToken newer;
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults().withMaxAttempts(10));
            q.enqueue(Task.of("work"));
            LeasedTask first = take(q);
            LeasedTask second = take(q, first);
            assertThat(second.attempt()).isEqualTo(2);
            newer = second.token();
            // the give-back of the first lease, decided while it held, written only now
            writeLate((TaskQueueHandle) q, giveBack(first.token(), first.attempt()), 0);
            assertThat(q.holds(newer)).as("the live queue refused it").isTrue();
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.holds(newer)).as("the newer lease, after the restart").isTrue();
            clock.advance(LEASE.plus(Duration.ofMinutes(10)));
            LeasedTask third = take(q);
            assertThat(third.attempt()).as("the count after the newer lease's 2").isEqualTo(3);
        }
    }

    @Test
    void aSharedGroupGiveBackWrittenAfterTheNextLeaseLowersNoCountAfterARestart() throws Exception {
        LeaseToken newer;
        try (Mikyu store = open()) {
            LogQueue topic = store.createLog("events", LogQueueConfig.defaults());
            topic.append(Entry.of("event"));
            SharedGroup g = topic.sharedGroup("shared", SharedGroupConfig.defaults());
            SharedGroup.Delivery first = fetch(g);
            clock.advance(LEASE.plus(Duration.ofMinutes(10)));
            SharedGroup.Delivery second = fetch(g);
            assertThat(second.deliveryCount()).isEqualTo(2);
            newer = second.token();
            writeLate((SharedGroupHandle) g, giveBack(first.token(), first.deliveryCount()), topic.endOffset());
            assertThat(g.holds(newer)).as("the live group refused it").isTrue();
        }
        try (Mikyu store = open()) {
            SharedGroup g = store.log("events").sharedGroup("shared", SharedGroupConfig.defaults());
            assertThat(g.holds(newer)).as("the newer lease, after the restart").isTrue();
            clock.advance(LEASE.plus(Duration.ofMinutes(10)));
            assertThat(fetch(g).deliveryCount()).as("the count after the newer lease's 2").isEqualTo(3);
        }
    }

    @Test
    void aRenewalWrittenAfterItsLeaseWasNackedBringsNoLeaseBackAfterARestart() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults().withMaxAttempts(10));
            q.enqueue(Task.of("work"));
            LeasedTask first = take(q);
            // the renewal, decided while the lease held; the nack is written first
            Entry renewal = record(TaskRecordDescriptor.EXTEND, first.token(),
                    clock.steadyMillis() + Duration.ofHours(1).toMillis(), first.attempt(), null);
            q.nack(first.token(), Duration.ZERO, "failed");
            writeLate((TaskQueueHandle) q, renewal, 0);
            assertThat(q.counts().inFlight()).as("the live queue refused the renewal").isZero();
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts().inFlight()).as("nothing leased after the restart").isZero();
            assertThat(take(q).attempt()).isEqualTo(2);
        }
    }

    /** The NACK record {@link LeaseLedger#returnUndelivered} writes: the attempt given back. */
    private Entry giveBack(LeaseToken token, int attempts) {
        return record(TaskRecordDescriptor.NACK, token, clock.steadyMillis(), attempts - 1, "returned undelivered");
    }

    private static Entry record(byte op, LeaseToken token, long time, int attempts, String reason) {
        return new Entry(null, Headers.EMPTY,
                TaskRecordDescriptor.state(op, token.taskId(), token.lease(), time, attempts, reason), 0);
    }

    /** Writes {@code record} as the ledger writes its state records (stamped as a shared group stamps them). */
    private static void writeLate(LedgerHandle handle, Entry record, long stamp) {
        handle.ledger.writeState(List.of(new Entry(record.key(), record.headers(), record.payload(), stamp)));
    }

    /** Takes the task once {@code previous}'s lease ran out and its backoff passed. */
    private LeasedTask take(TaskQueue q, LeasedTask previous) throws InterruptedException {
        clock.advance(LEASE.plus(Duration.ofMinutes(10)));
        LeasedTask next = take(q);
        assertThat(q.holds(previous.token())).isFalse();
        return next;
    }

    private static LeasedTask take(TaskQueue q) throws InterruptedException {
        List<LeasedTask> taken = q.dequeue(1, LEASE, Duration.ZERO, null);
        assertThat(taken).hasSize(1);
        return taken.get(0);
    }

    private static SharedGroup.Delivery fetch(SharedGroup g) throws InterruptedException {
        List<SharedGroup.Delivery> d = g.fetch(1, LEASE, Duration.ZERO);
        assertThat(d).hasSize(1);
        return d.get(0);
    }
}
