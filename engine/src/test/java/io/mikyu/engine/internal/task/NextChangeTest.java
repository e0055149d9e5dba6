package io.mikyu.engine.internal.task;

import io.mikyu.engine.Headers;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.format.TaskRecordDescriptor.Meta;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The time the store's timer reads, without the lock, to skip a queue with nothing due. */
class NextChangeTest {

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();
    private final TaskQueueState state = new TaskQueueState("q", TaskQueueConfig.defaults(), clock, 0, false);

    @Test
    void shouldBeNeverForAQueueWithOnlyReadyTasks() {
        state.enqueued(1, new Meta(4, 0, 0), clock.wallMillis(), Headers.EMPTY, clock.steadyMillis());
        assertEquals(Long.MAX_VALUE, state.nextChangeAt());
    }

    @Test
    void shouldComeNoLaterThanADelayedTaskOrALeaseEnd() {
        long now = clock.steadyMillis();
        state.enqueued(1, new Meta(4, clock.wallMillis() + 5_000, 0), clock.wallMillis(), Headers.EMPTY, now);
        assertTrue(state.nextChangeAt() <= now + 5_000, "the delayed task");
        assertTrue(state.nextChangeAt() > now, "not due yet");

        state.enqueued(2, new Meta(4, 0, 0), clock.wallMillis(), Headers.EMPTY, now);
        List<TaskEntry> leased = state.lease(1, null, now, now + 1_000);
        assertEquals(2, leased.get(0).id);
        assertEquals(now + 1_000, state.nextChangeAt(), "the lease ends first");
    }

    @Test
    void shouldMoveOnWhenTheClockIsAppliedAndBeNeverOnceNothingWaits() {
        long now = clock.steadyMillis();
        state.enqueued(1, new Meta(4, 0, 0), clock.wallMillis(), Headers.EMPTY, now);
        TaskEntry e = state.lease(1, null, now, now + 1_000).get(0);

        clock.advance(Duration.ofMillis(1_000));
        long later = clock.steadyMillis();
        state.promote(later);
        assertTrue(state.nextChangeAt() >= later, "the lease ran out: next is its redelivery after the backoff");

        clock.advance(Duration.ofHours(1));
        state.promote(clock.steadyMillis());
        state.lease(1, null, clock.steadyMillis(), clock.steadyMillis() + 60_000);
        state.beginFinish(e);
        state.finish(e.id);
        state.refreshNextChange(clock.steadyMillis());
        assertEquals(Long.MAX_VALUE, state.nextChangeAt());
    }

    @Test
    void shouldTellTheTimerOnceWhenTheQueueStartsWaitingForATime() {
        int[] armed = new int[1];
        state.onArmed(() -> armed[0]++);
        long now = clock.steadyMillis();
        state.enqueued(1, new Meta(4, 0, 0), clock.wallMillis(), Headers.EMPTY, now);
        state.enqueued(2, new Meta(4, 0, 0), clock.wallMillis(), Headers.EMPTY, now);
        assertEquals(0, armed[0], "ready tasks wait for no time");

        state.lease(1, null, now, now + 1_000);
        assertEquals(1, armed[0], "a lease that will end");
        state.lease(1, null, now, now + 500);
        assertEquals(1, armed[0], "already waiting: the timer visits it anyway");
    }

    @Test
    void shouldTellTheTimerAtOnceOfAQueueThatAlreadyWaits() {
        long now = clock.steadyMillis();
        state.enqueued(1, new Meta(4, clock.wallMillis() + 5_000, 0), clock.wallMillis(), Headers.EMPTY, now);
        int[] armed = new int[1];
        state.onArmed(() -> armed[0]++);
        assertEquals(1, armed[0], "recovered with a delayed task");
    }
}
