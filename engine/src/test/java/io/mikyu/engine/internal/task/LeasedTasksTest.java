package io.mikyu.engine.internal.task;

import io.mikyu.engine.Headers;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class LeasedTasksTest {

    private static TaskEntry leased(long id, long until) {
        TaskEntry e = new TaskEntry(id, 4, 0, 0, 0, Headers.EMPTY, 0);
        e.leaseUntil = until;
        return e;
    }

    @Test
    void the_first_is_the_task_whose_lease_ends_first() {
        LeasedTasks leased = new LeasedTasks();
        TaskEntry late = leased(1, 5_000);
        TaskEntry early = leased(2, 1_000);
        TaskEntry sameBatch = leased(3, 1_000);
        leased.add(late);
        leased.add(early);
        leased.add(sameBatch);
        assertSame(early, leased.pollFirst());
        assertSame(sameBatch, leased.pollFirst());
        assertSame(late, leased.pollFirst());
        assertNull(leased.first());
        assertEquals(0, leased.size());
    }

    @Test
    void an_acked_task_leaves_its_bucket_and_an_empty_bucket_goes() {
        LeasedTasks leased = new LeasedTasks();
        TaskEntry a = leased(1, 1_000);
        TaskEntry b = leased(2, 1_000);
        TaskEntry c = leased(3, 2_000);
        leased.add(a);
        leased.add(b);
        leased.add(c);
        leased.remove(b);
        leased.remove(a);
        leased.remove(a); // twice: no effect
        assertEquals(1, leased.size());
        assertSame(c, leased.first());
        leased.add(leased(4, 1_000)); // the emptied bucket's end again
        assertEquals(4, leased.first().id);
    }

    @Test
    void an_extended_lease_moves_to_its_new_end() {
        LeasedTasks leased = new LeasedTasks();
        TaskEntry a = leased(1, 1_000);
        TaskEntry b = leased(2, 2_000);
        leased.add(a);
        leased.add(b);
        leased.remove(a);
        a.leaseUntil = 3_000;
        leased.add(a);
        assertSame(b, leased.pollFirst());
        assertSame(a, leased.pollFirst());
    }
}
