package io.mikyu.engine.internal.task;

import io.mikyu.engine.Headers;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadyTasksTest {

    private static TaskEntry task(long id, int priority) {
        return new TaskEntry(id, priority, 0, 0, 0, Headers.EMPTY, 0);
    }

    private static List<Long> ids(Iterable<TaskEntry> tasks) {
        List<Long> out = new ArrayList<>();
        tasks.forEach(e -> out.add(e.id));
        return out;
    }

    @Test
    void hands_out_higher_priorities_first_and_lower_ids_first_within_a_priority() {
        ReadyTasks ready = new ReadyTasks();
        ready.add(task(1, 4));
        ready.add(task(2, 9));
        ready.add(task(3, 4));
        ready.add(task(4, 0));
        ready.add(task(5, 9));
        assertEquals(List.of(2L, 5L, 1L, 3L, 4L), ids(ready));
        List<Long> polled = new ArrayList<>();
        TaskEntry e;
        while ((e = ready.pollFirst()) != null) {
            polled.add(e.id);
        }
        assertEquals(List.of(2L, 5L, 1L, 3L, 4L), polled);
        assertTrue(ready.isEmpty());
    }

    @Test
    void a_task_that_comes_back_takes_its_place_by_id_among_later_ones() {
        ReadyTasks ready = new ReadyTasks();
        TaskEntry first = task(10, 4);
        ready.add(first);
        ready.add(task(11, 4));
        ready.add(task(12, 4));
        assertEquals(10, ready.pollFirst().id); // leased
        ready.add(task(13, 4));
        ready.add(first); // nacked: before 11
        ready.add(task(14, 4));
        assertEquals(List.of(10L, 11L, 12L, 13L, 14L), ids(ready));
        assertEquals(10, ready.first().id);
        assertEquals(5, ready.size());
    }

    @Test
    void removes_tasks_from_the_middle_and_both_ends() {
        ReadyTasks ready = new ReadyTasks();
        List<TaskEntry> all = new ArrayList<>();
        for (long id = 1; id <= 5; id++) {
            TaskEntry e = task(id, 4);
            all.add(e);
            ready.add(e);
        }
        ready.remove(all.get(2));
        ready.remove(all.get(0));
        ready.remove(all.get(4));
        assertEquals(List.of(2L, 4L), ids(ready));
        ready.add(task(6, 4));
        assertEquals(List.of(2L, 4L, 6L), ids(ready));
        ready.clear();
        assertTrue(ready.isEmpty());
        assertNull(ready.first());
    }

    @Test
    void agrees_with_a_sorted_set_under_random_adds_and_removals() {
        Random random = new Random(42);
        ReadyTasks ready = new ReadyTasks();
        TreeSet<TaskEntry> expected = new TreeSet<>(TaskEntry.DELIVERY_ORDER);
        List<TaskEntry> out = new ArrayList<>();
        long nextId = 0;
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(10);
            if (op < 5) {
                TaskEntry e = task(nextId++, random.nextInt(10));
                ready.add(e);
                expected.add(e);
            } else if (op < 7 && !out.isEmpty()) {
                TaskEntry back = out.remove(random.nextInt(out.size())); // a nack or an ended lease
                ready.add(back);
                expected.add(back);
            } else if (op < 9) {
                TaskEntry e = ready.pollFirst();
                assertEquals(expected.pollFirst(), e);
                if (e != null) {
                    out.add(e);
                }
            } else if (!expected.isEmpty()) {
                TaskEntry any = new ArrayList<>(expected).get(random.nextInt(expected.size()));
                ready.remove(any); // leased by a filtered dequeue
                expected.remove(any);
                out.add(any);
            }
            assertEquals(expected.size(), ready.size());
        }
        assertEquals(ids(expected), ids(ready));
    }
}
