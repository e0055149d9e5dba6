package io.mikyu.engine.crash;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.ChildProcess;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The child process of {@link CreateSigkillTest}: {@code <dir> <threads>} opens the store and creates queues from
 * that many threads until it is killed: a task queue {@code q-<n>}, printing {@code TASK q-<n> $} once its create
 * returned, and a log queue {@code t-<n>} with a consumer group {@code sub}, printing {@code LOG t-<n> $} once the
 * group's create returned.
 */
public final class CrashingCreator {

    private CrashingCreator() {
    }

    public static void main(String[] args) throws Exception {
        Mikyu store = Mikyu.open(Path.of(args[0]));
        int threads = Integer.parseInt(args[1]);
        AtomicInteger next = new AtomicInteger();
        for (int t = 0; t < threads; t++) {
            Thread creator = new Thread(() -> {
                while (true) {
                    int n = next.getAndIncrement();
                    store.createTaskQueue("q-" + n, TaskQueueConfig.defaults().withDurability(Durability.SYNC));
                    ChildProcess.println("TASK q-" + n + " $");
                    store.createLog("t-" + n, LogQueueConfig.defaults().withDurability(Durability.SYNC))
                            .group("sub");
                    ChildProcess.println("LOG t-" + n + " $");
                }
            }, "creator-" + t);
            creator.setDaemon(true);
            creator.start();
        }
        ChildProcess.awaitKill();
    }
}
