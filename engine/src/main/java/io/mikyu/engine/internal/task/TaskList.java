package io.mikyu.engine.internal.task;

/**
 * An intrusive doubly linked list of tasks through their {@code prev}/{@code next} links: append and unlink in
 * O(1) without allocating. A task is in at most one such list at a time (its READY level or its lease bucket).
 */
class TaskList {

    TaskEntry head;
    TaskEntry tail;

    final void append(TaskEntry e) {
        e.prev = tail;
        e.next = null;
        if (tail == null) {
            head = e;
        } else {
            tail.next = e;
        }
        tail = e;
    }

    /** Takes {@code e}, which must be in this list, out of it. */
    final void unlink(TaskEntry e) {
        if (e.prev == null) {
            head = e.next;
        } else {
            e.prev.next = e.next;
        }
        if (e.next == null) {
            tail = e.prev;
        } else {
            e.next.prev = e.prev;
        }
        e.prev = null;
        e.next = null;
    }
}
