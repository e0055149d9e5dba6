package io.mikyu.kafka.task;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.kafka.share.ShareLeases;

import java.time.Duration;

/** Tests' way to a task-queue handle's share consumers ({@link ShareLeases}), which only a lease names. */
final class HandleLeases {

    private HandleLeases() {
    }

    /** A task queue {@code name} made on {@code mikyu}, with one task put through it (enqueued, taken, acked). */
    record Queue(KafkaTaskQueue jobs, ShareLeases leases) {
    }

    /** Makes the queue, puts task {@code text} through it and returns the queue and its handle's share consumers. */
    static Queue afterOneTask(Mikyu mikyu, String name, Duration lease, String text) throws InterruptedException {
        KafkaTaskQueue jobs = (KafkaTaskQueue) mikyu.createTaskQueue(name,
                TaskQueueConfig.defaults().withDefaultLease(lease));
        jobs.enqueue(Task.of(text));
        LeasedTask task = jobs.dequeue(1, lease, Duration.ofMinutes(2), null).get(0);
        ShareLeases leases = jobs.leases(task.token());
        jobs.ack(task.token());
        return new Queue(jobs, leases);
    }
}
