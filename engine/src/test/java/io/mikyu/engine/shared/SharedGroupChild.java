package io.mikyu.engine.shared;

import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.support.ChildProcess;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The child process of {@link SharedGroupRecoveryTest}: {@code lease <dir> <leaseMillis>} appends records r0..r9
 * to log queue {@code events}, fetches 0-5 for group {@code g} under a lease of {@code leaseMillis}, acks 0, 1 and
 * 3, prints {@code DONE <leaseExpiresAt> $} and sleeps until killed.
 */
public final class SharedGroupChild {

    private SharedGroupChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        long leaseMillis = Long.parseLong(args[2]);
        Mikyu store = Mikyu.open(dir);
        LogQueue q = store.getOrCreateLog("events", LogQueueConfig.defaults());
        SharedTesting.fill(q, 0, 10);
        SharedGroup g = q.sharedGroup("g", SharedTesting.config());
        List<SharedGroup.Delivery> ds = g.fetch(6, Duration.ofMillis(leaseMillis), Duration.ZERO);
        if (ds.size() != 6) {
            throw new IllegalStateException("fetched " + ds.size());
        }
        g.ack(ds.get(0).token());
        g.ack(ds.get(1).token());
        g.ack(ds.get(3).token());
        ChildProcess.println("DONE " + ds.get(0).leaseExpiresAt());
        ChildProcess.awaitKill();
    }
}
