package io.mikyu.engine.log;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/** The store's bound on open segment files (maxOpenSegmentFiles) with many queues, deletes and compaction. */
class OpenSegmentFilesBoundTest {

    private static final Path FDS = Path.of("/proc/self/fd");

    @TempDir
    Path data;

    private static EngineConfig bounded(int maxOpen, SimpleMeterRegistry registry) {
        return EngineConfig.builder().maxOpenSegmentFiles(maxOpen).meterRegistry(registry).build();
    }

    /** This process's descriptors open on files under {@code dir} whose name ends with {@code suffix}. */
    private static List<String> descriptorsUnder(Path dir, String suffix) throws IOException {
        List<String> found = new ArrayList<>();
        String prefix = dir.toAbsolutePath().normalize().toString();
        try (Stream<Path> fds = Files.list(FDS)) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(prefix) && target.replace(" (deleted)", "").endsWith(suffix)) {
                        found.add(target);
                    }
                } catch (IOException gone) {
                    // closed while listing
                }
            }
        }
        return found;
    }

    @Test
    void aReopenedStoreWithManyQueuesKeepsItsSegmentFilesWithinTheBound() throws Exception {
        assumeThat(Files.isDirectory(FDS)).as("Linux /proc").isTrue();
        int queues = 16;
        try (Mikyu store = Mikyu.open(data, bounded(4, new SimpleMeterRegistry()))) {
            for (int i = 0; i < queues; i++) {
                store.createLog("log-" + i, LogQueueConfig.defaults()).append(Entry.of("record " + i));
                store.createTaskQueue("task-" + i, TaskQueueConfig.defaults()).enqueue(Task.of("task " + i));
            }
        }
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Mikyu store = Mikyu.open(data, bounded(4, registry))) {
            for (int i = 0; i < queues; i++) {
                LogQueue log = store.getOrCreateLog("log-" + i, LogQueueConfig.defaults());
                ConsumerGroup group = log.group("subscription");
                List<Record> got = group.poll(1, Duration.ofSeconds(30)); // from the file: the cache starts empty
                assertThat(got).extracting(Record::payloadAsString).containsExactly("record " + i);
                group.commit(got.get(0).offset() + 1);
                TaskQueue tasks = store.getOrCreateTaskQueue("task-" + i, TaskQueueConfig.defaults());
                LeasedTask task = tasks.dequeue(Duration.ofSeconds(30));
                assertThat(task.payloadAsString()).isEqualTo("task " + i);
                tasks.ack(task.token());
            }
            store.flush();
            // Once fsynced, the channels over the bound are closed by the store's timer.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(registry.get("mikyu.engine.segment.files.open").gauge().value())
                            .isLessThanOrEqualTo(4));
            assertThat(registry.get("mikyu.engine.segment.files.closed").functionCounter().count())
                    .isGreaterThan(0);
            assertThat(descriptorsUnder(data, ".seg")).hasSizeLessThanOrEqualTo(4);

            // Every queue still works through channels closed and reopened on the way.
            for (int i = 0; i < queues; i++) {
                LogQueue log = store.getOrCreateLog("log-" + i, LogQueueConfig.defaults());
                log.append(Entry.of("again " + i));
                assertThat(log.read(0, 10)).extracting(Record::payloadAsString)
                        .containsExactly("record " + i, "again " + i);
            }
        }
    }

    @Test
    void aDeletedQueueHoldsNoDescriptorOnItsFiles() throws Exception {
        assumeThat(Files.isDirectory(FDS)).as("Linux /proc").isTrue();
        try (Mikyu store = Mikyu.open(data, bounded(64, new SimpleMeterRegistry()))) {
            LogQueue doomed = store.createLog("doomed", LogQueueConfig.defaults().withSegmentBytes(4096));
            for (int i = 0; i < 200; i++) {
                doomed.append(Entry.of("record " + i + " " + "#".repeat(50)));
            }
            assertThat(doomed.read(0, 1000)).hasSize(200); // sealed segments mapped, the active one read
            TaskQueue tasks = store.createTaskQueue("doomed-tasks", TaskQueueConfig.defaults());
            tasks.enqueue(Task.of("t"));
            Path logDir = data.resolve("log").resolve("doomed");
            Path taskDir = data.resolve("task").resolve("doomed-tasks");
            assertThat(descriptorsUnder(logDir, ".seg")).isNotEmpty();

            assertThat(store.deleteLog("doomed")).isTrue();
            assertThat(store.deleteTaskQueue("doomed-tasks")).isTrue();

            assertThat(descriptorsUnder(logDir, "")).isEmpty();
            assertThat(descriptorsUnder(taskDir, "")).isEmpty();
        }
    }

    @Test
    void aConsumerGroupHoldsNoDescriptorOnItsOffsetsBetweenCommits() throws Exception {
        assumeThat(Files.isDirectory(FDS)).as("Linux /proc").isTrue();
        try (Mikyu store = Mikyu.open(data, bounded(64, new SimpleMeterRegistry()))) {
            LogQueue topic = store.createLog("topic", LogQueueConfig.defaults());
            topic.append(Entry.of("one"));
            ConsumerGroup group = topic.group("subscription");
            group.commit(1);
            assertThat(descriptorsUnder(data.resolve("log").resolve("topic"), "offsets.log")).isEmpty();
        }
        try (Mikyu store = Mikyu.open(data, bounded(64, new SimpleMeterRegistry()))) {
            ConsumerGroup group = store.getOrCreateLog("topic", LogQueueConfig.defaults()).group("subscription");
            assertThat(group.position()).as("the commit survived").isEqualTo(1);
            assertThat(descriptorsUnder(data.resolve("log").resolve("topic"), "offsets.log")).isEmpty();
        }
    }

    @Test
    void reopeningAndClosingAStoreWithoutWritesTouchesNoQueueFile() throws Exception {
        try (Mikyu store = Mikyu.open(data, bounded(64, new SimpleMeterRegistry()))) {
            store.createLog("quiet", LogQueueConfig.defaults()).append(Entry.of("one"));
            store.createTaskQueue("quiet-tasks", TaskQueueConfig.defaults()).enqueue(Task.of("t"));
        }
        // Back-dated, so that any write, truncation or rewrite of them shows as a new modification time.
        FileTime longAgo = FileTime.fromMillis(946_684_800_000L);
        for (Path p : queueFiles().keySet()) {
            Files.setLastModifiedTime(p, longAgo);
        }
        Map<Path, FileTime> before = queueFiles();
        assertThat(before.keySet()).anyMatch(p -> p.toString().endsWith(".idx"));
        try (Mikyu store = Mikyu.open(data, bounded(64, new SimpleMeterRegistry()))) {
            assertThat(store.getOrCreateLog("quiet", LogQueueConfig.defaults()).read(0, 10)).hasSize(1);
        }
        assertThat(queueFiles()).isEqualTo(before);

        try (Mikyu store = Mikyu.open(data, bounded(64, new SimpleMeterRegistry()))) {
            LogQueue quiet = store.getOrCreateLog("quiet", LogQueueConfig.defaults());
            quiet.append(Entry.of("two")); // written: its index is stale and goes before the write
            assertThat(quiet.read(0, 10)).extracting(Record::payloadAsString).containsExactly("one", "two");
        }
        try (Mikyu store = Mikyu.open(data, bounded(64, new SimpleMeterRegistry()))) {
            assertThat(store.getOrCreateLog("quiet", LogQueueConfig.defaults()).read(0, 10))
                    .extracting(Record::payloadAsString).containsExactly("one", "two");
            assertThat(store.recoveryReport().events()).as("a clean close needs no scan").isEmpty();
        }
    }

    /** Segment, index and offsets files of every queue with their modification times. */
    private Map<Path, FileTime> queueFiles() throws IOException {
        Map<Path, FileTime> files = new TreeMap<>();
        for (String kind : List.of("log", "task")) {
            try (Stream<Path> all = Files.walk(data.resolve(kind))) {
                for (Path p : (Iterable<Path>) all::iterator) {
                    String name = p.getFileName().toString();
                    if (name.endsWith(".seg") || name.endsWith(".idx") || name.equals("offsets.log")) {
                        files.put(p, Files.getLastModifiedTime(p));
                    }
                }
            }
        }
        return files;
    }

    @Test
    void appendsReadsAndCompactionGoOnWhileChannelsAreClosedAndReopened() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        EngineConfig config = EngineConfig.builder().maxOpenSegmentFiles(3).cacheBytesPerQueue(0)
                .flushInterval(Duration.ofMillis(5)).meterRegistry(registry).build();
        int queues = 6;
        int perQueue = 150;
        try (Mikyu store = Mikyu.open(data, config)) {
            List<LogQueue> logs = new ArrayList<>();
            for (int q = 0; q < queues; q++) {
                logs.add(store.createLog("q" + q, LogQueueConfig.defaults().withSegmentBytes(4096)));
            }
            LogQueue compacted = store.createLog("keyed", LogQueueConfig.defaults().withSegmentBytes(4096)
                    .withCompaction(true));
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicBoolean writing = new AtomicBoolean(true);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int first = w;
                threads.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < perQueue; i++) {
                            for (int q = first; q < queues; q += 2) {
                                logs.get(q).append(Entry.of("q" + q + "-" + i + "-" + "#".repeat(40)));
                            }
                            compacted.append(Entry.keyed("k" + (i % 5) + "-" + first, "v" + i + "#".repeat(40)));
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            Runnable reader = () -> {
                try {
                    while (writing.get()) {
                        for (int q = 0; q < queues; q++) {
                            List<Record> all = logs.get(q).read(0, 100_000);
                            for (int i = 0; i < all.size(); i++) {
                                assertThat(all.get(i).payloadAsString()).startsWith("q" + q + "-");
                                assertThat(all.get(i).offset()).isEqualTo(i);
                            }
                        }
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            };
            threads.add(new Thread(reader));
            threads.add(new Thread(reader));
            threads.add(new Thread(() -> {
                try {
                    while (writing.get()) {
                        compacted.compact();
                        compacted.read(0, 100_000);
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
            threads.forEach(Thread::start);
            threads.get(0).join();
            threads.get(1).join();
            writing.set(false);
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures).isEmpty();
            for (int q = 0; q < queues; q++) {
                List<Record> all = logs.get(q).read(0, 100_000);
                assertThat(all).hasSize(perQueue);
                for (int i = 0; i < perQueue; i++) {
                    assertThat(all.get(i).payloadAsString()).startsWith("q" + q + "-" + i + "-");
                }
            }
            assertThat(registry.get("mikyu.engine.segment.files.closed").functionCounter().count())
                    .as("the bound was at work").isGreaterThan(0);
        }
    }
}
