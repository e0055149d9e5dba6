package io.mikyu.samples.quickstart;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Record;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * mikyu in one page: an embedded store, a log queue (appends, reads by offset, a consumer group, a long poll) and a
 * task queue (leases, acks, retries, a dead letter).
 *
 * <pre>
 *   mvn -q -DskipTests package &amp;&amp; java -jar samples/quickstart/target/mikyu-quickstart.jar [data-dir]
 * </pre>
 *
 * Run it twice: the records stay in {@code ./data}, and the consumer group carries on where it stopped.
 */
public final class Quickstart {

    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(args.length > 0 ? args[0] : "data");

        // 1. Open the store. It lives in one directory, created if needed; only one process may hold it at a time.
        //    Closing it (try-with-resources) flushes to disk and releases the directory.
        try (Mikyu mikyu = Mikyu.open(dataDir)) {
            System.out.println("opened store in " + mikyu.location());

            // 2. A log queue: an append-only stream addressed by offset. getOrCreateLog makes this re-runnable.
            LogQueue events = mikyu.getOrCreateLog("events", LogQueueConfig.defaults());
            System.out.println("queue 'events' holds offsets " + events.startOffset() + ".." + events.endOffset()
                    + " (exclusive)");

            // 3. Append. Each call returns the record's offset once it is written to the OS (the queue's
            //    default durability, async); a process crash loses nothing acknowledged.
            long hello = events.append(Entry.of("hello, mikyu"));
            System.out.println("appended 'hello, mikyu' at offset " + hello);

            // A key (used by compaction: keep the newest record per key) and headers (name -> bytes).
            // Durability.SYNC returns only after the fsync that covers this record: it survives power loss too.
            Entry signup = Entry.keyed("user-42", "{\"event\":\"signup\",\"plan\":\"free\"}")
                    .withHeaders(Headers.of("type", "signup", "region", "eu"));
            long signupOffset = events.append(signup, Durability.SYNC);
            System.out.println("appended a keyed record with headers at offset " + signupOffset + " (fsynced)");

            // A batch is written together, in order, with one call: the cheapest way to append many records.
            long first = events.appendBatch(List.of(Entry.of("batch: one"), Entry.of("batch: two"), Entry.of("batch: three")));
            System.out.println("appended a batch of 3 at offsets " + first + ".." + (first + 2));

            // 4. Read by offset: any record, any time, as often as you like. Reading does not consume.
            Record record = events.read(signupOffset);
            System.out.println("read offset " + record.offset() + ": key=" + record.keyAsString()
                    + " type=" + record.headers().getString("type") + " payload=" + record.payloadAsString());

            // 5. A consumer group remembers how far it got, durably. poll() returns records from the committed
            //    position; commit() records the next offset to read. On the next run it resumes from there.
            ConsumerGroup group = events.group("quickstart");
            System.out.println("group 'quickstart' is at offset " + group.position() + ", " + group.lag() + " behind");
            List<Record> records;
            while (!(records = group.poll(100, Duration.ofMillis(100))).isEmpty()) {
                for (Record r : records) {
                    System.out.println("  consumed " + r.offset() + ": " + r.payloadAsString());
                }
                group.commit(records.get(records.size() - 1).offset() + 1);
            }
            System.out.println("group 'quickstart' committed offset " + group.position());

            // 6. Long poll: wait for a record that does not exist yet. Another thread appends it shortly;
            //    poll() returns as soon as it lands instead of sleeping and re-checking.
            long next = events.endOffset();
            Thread producer = new Thread(() -> {
                try {
                    Thread.sleep(300);
                    events.append(Entry.of("appended by another thread"));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            producer.start();
            long start = System.nanoTime();
            List<Record> arrived = events.poll(next, 10, Duration.ofSeconds(5));
            System.out.printf("long poll from offset %d returned %d record(s) after %d ms: %s%n", next, arrived.size(),
                    (System.nanoTime() - start) / 1_000_000, arrived.isEmpty() ? "-" : arrived.get(0).payloadAsString());
            producer.join();

            // 7. Statistics of the queue: sizes are the store's, counters count since the store was opened.
            QueueStats stats = events.stats();
            System.out.printf("queue 'events': %d records in %d segment(s), %d bytes on disk, %d appended and"
                            + " %d read since open, ring cache hit rate %.0f%%%n",
                    stats.records(), stats.segments(), stats.bytesOnDisk(), stats.appendedRecords(), stats.readRecords(),
                    stats.cacheHitRate() * 100);

            // 8. A task queue: at-least-once work. dequeue() hands a task out under a lease; ack() finishes it;
            //    nack() (or a lease that runs out) brings it back after a backoff, and after maxAttempts deliveries
            //    it moves to the queue's dead-letter queue, "jobs/dlq". Short backoff and 2 attempts for the demo.
            TaskQueue jobs = mikyu.getOrCreateTaskQueue("jobs", TaskQueueConfig.defaults().withMaxAttempts(2)
                    .withBackoff(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1)));
            jobs.enqueue(Task.of("send welcome email").withPriority(7));
            jobs.enqueue(Task.of("resize avatar"));
            jobs.enqueue(Task.of("this one always fails"));
            System.out.println("task queue 'jobs': " + jobs.counts());
            LeasedTask task;
            while ((task = jobs.dequeue(Duration.ofMillis(500))) != null) {
                if (task.payloadAsString().contains("fails")) {
                    System.out.println("  attempt " + task.attempt() + " of '" + task.payloadAsString() + "' failed");
                    jobs.nack(task.token(), null, "demo failure on attempt " + task.attempt());
                } else {
                    System.out.println("  did '" + task.payloadAsString() + "' (priority " + task.priority()
                            + ", attempt " + task.attempt() + ")");
                    jobs.ack(task.token());
                }
            }
            for (LeasedTask dead : jobs.deadLetters().browse(10, null)) {
                System.out.println("  dead letter in jobs/dlq: '" + dead.payloadAsString() + "', reason: "
                        + dead.headers().getString(TaskQueue.DLQ_REASON));
            }
        }
        System.out.println("closed; run again to see the records kept and the group resume");
    }

    private Quickstart() {
    }
}
