package io.mikyu.cli;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer 1 GiB behind does not grow the broker's heap: a daemon in a child JVM with a 128 MiB heap (and 64 MiB
 * of direct memory) takes ~1 GiB into a log queue, then a slow reader asks it for everything from the start, over
 * and over, and a consumer group polls the same backlog. The daemon must stay alive and answer, with its heap
 * (sampled with jcmd) under the limit throughout. Profile {@code -Psoak}; {@code -Dmikyu.soak.bytes} sets the volume.
 */
@Tag("soak")
class SlowConsumerSoakTest {

    private static final long BYTES = Long.getLong("mikyu.soak.bytes", 1L << 30);
    private static final int RECORD_BYTES = 4096;
    private static final int BATCH = 256;                              // 1 MiB per append
    private static final String HEAP = "128m";
    private static final Pattern USED = Pattern.compile("generation\\s+total \\d+K, used (\\d+)K");

    @TempDir
    Path dir;

    @Test
    void aReaderFarBehindIsServedWithinAFixedHeap() throws Exception {
        try (DaemonProcess daemon = DaemonProcess.start(List.of("-Xmx" + HEAP, "-XX:MaxDirectMemorySize=64m",
                "-XX:+UseSerialGC"), dir, dir.resolve("data"), "tcp://127.0.0.1:0")) {
            String uri = daemon.awaitListening(Duration.ofSeconds(30)).get(0);
            AtomicLong peakHeap = new AtomicLong();
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(
                    r -> new Thread(r, "heap-sampler"));
            sampler.scheduleWithFixedDelay(() -> sample(daemon, peakHeap), 0, 500, TimeUnit.MILLISECONDS);
            long records = BYTES / RECORD_BYTES;
            try (Mikyu client = Mikyu.dial(uri)) {
                LogQueue log = client.createLog("backlog");
                byte[] payload = new byte[RECORD_BYTES];
                List<Entry> batch = new ArrayList<>(BATCH);
                for (long i = 0; i < records; i++) {
                    payload[0] = (byte) i;
                    batch.add(Entry.of(payload.clone()));
                    if (batch.size() == BATCH || i == records - 1) {
                        log.appendBatch(batch, Durability.ASYNC);
                        batch.clear();
                    }
                }
                assertThat(log.endOffset()).isEqualTo(records);

                // The slow reader: asks for everything there is, takes its time over each answer.
                long next = 0;
                long answers = 0;
                while (next < records) {
                    List<Record> slice = log.read(next, Integer.MAX_VALUE);
                    assertThat(slice).isNotEmpty();
                    assertThat(slice.get(0).offset()).isEqualTo(next);
                    assertThat(slice.get(0).payload()[0]).isEqualTo((byte) next);
                    next = slice.get(slice.size() - 1).offset() + 1;
                    answers++;
                    // The reader's pace is the scenario (a consumer taking its time over each answer while the
                    // heap is sampled), not a wait for something to happen.
                    Thread.sleep(5);
                }
                // A consumer group as far behind, polling for as much as it may.
                ConsumerGroup group = log.group("late");
                long polled = 0;
                while (polled < records) {
                    List<Record> slice = group.poll(Integer.MAX_VALUE, Duration.ofSeconds(5));
                    assertThat(slice).isNotEmpty();
                    polled += slice.size();
                    group.commit(slice.get(slice.size() - 1).offset() + 1);
                }

                assertThat(answers).isGreaterThan(1);
                assertThat(daemon.isAlive()).isTrue();
                assertThat(client.stats().appendedRecords()).isEqualTo(records);
            } finally {
                sampler.shutdown();
                assertThat(sampler.awaitTermination(30, TimeUnit.SECONDS)).as("the heap sampler stopped").isTrue();
            }
            assertThat(peakHeap.get()).as("peak heap of the daemon, MiB").isPositive()
                    .isLessThan(128L << 20);
            System.out.printf("soak: %d MiB through a %s daemon; its peak heap %d MiB%n", BYTES >> 20, HEAP,
                    peakHeap.get() >> 20);
        }
    }

    /** One sample of the daemon's used heap, from {@code jcmd PID GC.heap_info}, into {@code peak}. */
    private static void sample(DaemonProcess daemon, AtomicLong peak) {
        if (!daemon.isAlive()) {
            return;
        }
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        try {
            Process p = new ProcessBuilder(jcmd, String.valueOf(daemon.pid()), "GC.heap_info")
                    .redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            long used = 0;
            Matcher m = USED.matcher(text);
            while (m.find()) {
                used += Long.parseLong(m.group(1)) << 10;
            }
            peak.accumulateAndGet(used, Math::max);
        } catch (IOException e) {
            // the daemon went away between two samples: the test sees it is not alive
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
