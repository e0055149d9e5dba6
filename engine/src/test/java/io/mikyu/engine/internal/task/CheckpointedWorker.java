package io.mikyu.engine.internal.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.ChildProcess;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Child process of {@link CheckpointSigkillTest}: builds a backlog, writes a checkpoint through housekeeping
 * ({@code CKPT}), then enqueues, acks and nacks without end, printing each once it is acknowledged
 * ({@code ENQ id}, {@code ACK id}, {@code NACK id}), until it is killed.
 */
public final class CheckpointedWorker {

    static final int WINDOW = 16;

    private CheckpointedWorker() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Mikyu store = Mikyu.open(dir, EngineConfig.builder().taskWindow(WINDOW).build());
        TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
        for (int i = 0; i < 300; i++) {
            ChildProcess.println("ENQ " + q.enqueue(Task.of("t" + i)));
        }
        for (int i = 0; i < 40; i++) {
            LeasedTask t = q.dequeue(1, Duration.ofMinutes(10), Duration.ZERO, null).get(0);
            q.ack(t.token());
            ChildProcess.println("ACK " + t.id());
        }
        store.flush();
        ((TaskQueueHandle) q).housekeeping();
        ChildProcess.println("CKPT");
        for (long n = 0; ; n++) {
            ChildProcess.println("ENQ " + q.enqueue(Task.of("n" + n).withPriority((int) (n % 3))));
            List<LeasedTask> t = q.dequeue(1, Duration.ofMinutes(10), Duration.ZERO, null);
            if (t.isEmpty()) {
                continue;
            }
            if (n % 5 == 0) {
                q.nack(t.get(0).token(), Duration.ZERO, "again");
                ChildProcess.println("NACK " + t.get(0).id());
            } else if (n % 2 == 0) {
                q.ack(t.get(0).token());
                ChildProcess.println("ACK " + t.get(0).id());
            }
            // else: left leased, until its lease runs out after the crash
        }
    }
}
