package io.mikyu.engine.internal.store;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.Entry;
import io.mikyu.engine.support.SteppableTimeSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's timer visits only the queues waiting for a lease or a delay to end: an idle store's timer visits
 * none, however many queues it holds, and a queue leaves the timer's list once nothing of it waits.
 */
@Timeout(60)
class TimerVisitsTest {

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Store open() {
        return Store.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    @Test
    void shouldVisitNoQueueOfAnIdleStore() {
        try (Store store = open()) {
            for (int i = 0; i < 50; i++) {
                store.createTaskQueue("q-" + i).enqueue(Task.of("t" + i));
            }
            assertThat(store.timedQueues()).as("ready tasks wait for no time").isZero();
        }
    }

    @Test
    void shouldVisitAQueueWhileALeaseOrARedeliveryWaitsAndThenNoMore() throws Exception {
        try (Store store = open()) {
            for (int i = 0; i < 20; i++) {
                store.createTaskQueue("idle-" + i);
            }
            TaskQueue jobs = store.createTaskQueue("jobs");
            jobs.enqueue(Task.of("one"));
            LeasedTask t = jobs.dequeue(1, Duration.ofSeconds(5), Duration.ZERO, null).get(0);
            assertThat(store.timedQueues()).as("only the queue with a lease").isEqualTo(1);

            clock.advance(Duration.ofSeconds(5)); // the lease ends: its redelivery waits for the backoff
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> jobs.counts().inFlight() == 0);
            assertThat(store.timedQueues()).as("the redelivery waits for a time").isEqualTo(1);
            clock.advance(Duration.ofHours(1));
            LeasedTask again = jobs.dequeue(1, Duration.ofSeconds(5), Duration.ofSeconds(10), null).get(0);
            assertThat(again.token()).isNotEqualTo(t.token());
            jobs.ack(again.token());
            clock.advance(Duration.ofSeconds(5));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> store.timedQueues() == 0);
        }
    }

    @Test
    void shouldVisitASharedGroupWhileARecordIsLeased() throws Exception {
        try (Store store = open()) {
            LogQueue events = store.createLog("events");
            events.append(Entry.of("a"));
            SharedGroup g = events.sharedGroup("g", SharedGroupConfig.defaults());
            List<SharedGroup.Delivery> got = g.fetch(1, Duration.ofSeconds(5), Duration.ZERO);
            assertThat(got).hasSize(1);
            assertThat(store.timedQueues()).isEqualTo(1);
            g.ack(got.get(0).token());
            clock.advance(Duration.ofSeconds(5));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> store.timedQueues() == 0);
        }
    }
}
