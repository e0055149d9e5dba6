package io.mikyu.engine.faults;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs in a small filesystem of its own (see {@link RealDiskFullTest}): fills it with sync appends and enqueues
 * until the disk refuses, frees space, goes on, then reopens the store and checks every acknowledged write. Prints
 * one line per finding.
 */
public final class RealDiskFullChild {

    private RealDiskFullChild() {
    }

    public static void main(String[] args) throws Exception {
        Path fs = Path.of(args[0]);
        Path filler = fs.resolve("filler");
        Files.write(filler, new byte[2 << 20]);
        Path data = fs.resolve("data");
        EngineConfig config = EngineConfig.builder().minFreeDiskBytes(0).build();
        List<String> acked = new ArrayList<>();
        int tasksAcked = 0;
        String pad = "p".repeat(900);
        try (Mikyu store = Mikyu.open(data, config)) {
            LogQueue q = store.createLog("q", LogQueueConfig.defaults().withDurability(Durability.SYNC)
                    .withSegmentBytes(256 * 1024));
            TaskQueue t = store.createTaskQueue("t", TaskQueueConfig.defaults().withDurability(Durability.SYNC));
            int failures = 0;
            for (int i = 0; failures < 5 && i < 1_000_000; i++) {
                try {
                    if (i % 4 == 3) {
                        t.enqueue(Task.of("task" + i));
                        tasksAcked++;
                    } else {
                        q.append(Entry.of("r" + i + pad));
                        acked.add("r" + i + pad);
                    }
                } catch (RuntimeException e) {
                    failures++;
                    System.out.println("full " + e.getClass().getSimpleName() + ": " + e.getMessage());
                }
            }
            System.out.println("acked " + acked.size() + " records, " + tasksAcked + " tasks before the disk was full");
            Files.delete(filler); // space returns
            for (int i = 0; i < 100; i++) {
                String payload = "after" + i + pad;
                q.append(Entry.of(payload));
                acked.add(payload);
                t.enqueue(Task.of("after" + i));
                tasksAcked++;
            }
            System.out.println("after space returned: 100 records and 100 tasks acknowledged");
        }
        try (Mikyu store = Mikyu.open(data, config)) {
            List<String> found = new ArrayList<>();
            LogQueue q = store.log("q");
            for (long from = q.startOffset(); ; ) {
                List<Record> chunk = q.read(from, 1000);
                if (chunk.isEmpty()) {
                    break;
                }
                chunk.forEach(r -> found.add(r.payloadAsString()));
                from = chunk.get(chunk.size() - 1).offset() + 1;
            }
            long tasks = store.taskQueue("t").counts().ready();
            if (!found.containsAll(acked)) {
                List<String> missing = new ArrayList<>(acked);
                missing.removeAll(found);
                System.out.println("MISSING " + missing.size() + " acknowledged records");
            }
            if (tasks < tasksAcked) {
                System.out.println("MISSING " + (tasksAcked - tasks) + " acknowledged tasks");
            }
            System.out.println("verified " + found.size() + " records (" + acked.size() + " acknowledged), " + tasks
                    + " tasks (" + tasksAcked + " acknowledged), recovery " + store.recoveryReport().events().size()
                    + " events");
        }
    }
}
