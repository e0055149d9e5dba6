package io.mikyu.engine.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The queues the transaction tests work on: log queues {@code a} and {@code b}; task queues {@code jobs} (tasks to
 * ack or nack) and {@code out} (enqueue target); log queue {@code src} with shared group {@code sg} and exclusive
 * group {@code ex}.
 */
final class TxnFixture {

    static final Duration LONG_LEASE = Duration.ofSeconds(60);
    static final Duration BACKOFF = Duration.ofMillis(50);

    private TxnFixture() {
    }

    static TaskQueueConfig taskConfig() {
        return TaskQueueConfig.defaults().withBackoff(BACKOFF, 2.0, Duration.ofMillis(200)).withMaxAttempts(5)
                .withSegmentBytes(4L << 20);
    }

    static SharedGroupConfig sharedConfig() {
        return new SharedGroupConfig(1_000, taskConfig());
    }

    /** Creates the queues; {@code jobs} gets {@code jobs} tasks "job-i", {@code src} gets {@code records} "src-i". */
    static void create(Mikyu store, int jobs, int records) {
        store.createLog("a");
        store.createLog("b");
        TaskQueue j = store.createTaskQueue("jobs", taskConfig());
        store.createTaskQueue("out", taskConfig());
        LogQueue src = store.createLog("src");
        src.sharedGroup("sg", sharedConfig());
        for (int i = 0; i < jobs; i++) {
            j.enqueue(Task.of("job-" + i));
        }
        for (int i = 0; i < records; i++) {
            src.append(Entry.of("src-" + i));
        }
    }

    static List<String> payloads(LogQueue q) {
        List<String> out = new ArrayList<>();
        for (Record r : q.read(0, 100_000)) {
            out.add(r.payloadAsString());
        }
        return out;
    }

    /** Payloads of the ready tasks, without leasing them. */
    static List<String> ready(TaskQueue q) {
        return q.browse(100_000, null).stream().map(t -> t.payloadAsString()).toList();
    }

    static String hex(byte[] bytes) {
        StringBuilder b = new StringBuilder();
        for (byte x : bytes) {
            b.append(String.format("%02x", x));
        }
        return b.toString();
    }

    static byte[] unhex(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
