package io.mikyu.broker.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.spi.QueueMeterSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusScrapeTest {

    @TempDir
    Path data;

    @Test
    void shouldWriteEveryQueueMeterUnderTheNamesAndLabelsTheRegisteredMetersHad() throws Exception {
        Map<String, String> registered = queueLines(scrape(data.resolve("registered"), true));
        Map<String, String> read = queueLines(scrape(data.resolve("read"), false));

        assertThat(registered).containsKeys(
                "mikyu_queue_in_total{kind=\"log\",queue=\"events\"}",
                "mikyu_queue_depth{kind=\"task\",queue=\"jobs\"}",
                "mikyu_queue_acked_total{kind=\"task\",queue=\"jobs\"}",
                "mikyu_group_lag{group=\"g\",kind=\"log\",queue=\"events\"}",
                "mikyu_queue_append_latency_seconds_count{kind=\"log\",queue=\"events\"}",
                "# TYPE mikyu_queue_in_total", "# TYPE mikyu_queue_depth",
                "# TYPE mikyu_queue_append_latency_seconds");
        // The registered timer also had a decaying maximum; the meters read at scrape time keep count and sum only.
        registered.keySet().removeIf(k -> k.contains("append_latency_seconds_max"));
        assertThat(read.keySet()).isEqualTo(registered.keySet());
        registered.forEach((line, value) -> {
            if (!line.contains("append_latency_seconds_sum") && !line.startsWith("# HELP")) {
                assertThat(read.get(line)).as(line).isEqualTo(value);
            }
        });
        assertThat(read).containsEntry("mikyu_queue_in_total{kind=\"log\",queue=\"events\"}", "3.0")
                .containsEntry("mikyu_group_lag{group=\"g\",kind=\"log\",queue=\"events\"}", "1.0")
                .containsEntry("mikyu_queue_acked_total{kind=\"task\",queue=\"jobs\"}", "1.0")
                .containsEntry("mikyu_queue_depth{kind=\"task\",queue=\"jobs\"}", "1.0");
    }

    @Test
    void shouldRegisterNothingPerQueueAndDropADeletedQueue() throws Exception {
        PrometheusMeterRegistry registry = MetricsEndpoint.newRegistry();
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().meterRegistry(registry).perQueueMeters(false)
                .build())) {
            store.createLog("tenant-7.orders_v2").append(Entry.of("x"));
            store.createLog("gone").append(Entry.of("y"));
            PrometheusScrape scrape = new PrometheusScrape(registry, QueueMeterSource.of(store).orElseThrow());
            assertThat(text(scrape)).contains("mikyu_queue_in_total{kind=\"log\",queue=\"tenant-7.orders_v2\"} 1.0")
                    .contains("queue=\"gone\"");
            assertThat(registry.find("mikyu.queue.in").meters()).as("nothing registered per queue").isEmpty();

            store.deleteLog("gone");
            assertThat(text(scrape)).doesNotContain("queue=\"gone\"");
        } finally {
            registry.close();
        }
    }

    @Test
    void shouldWriteTheEssentialFamiliesByDefaultAndTheDetailWhenAsked() throws Exception {
        PrometheusMeterRegistry registry = MetricsEndpoint.newRegistry();
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().meterRegistry(registry).perQueueMeters(false)
                .build())) {
            LogQueue events = store.createLog("events");
            events.append(Entry.of("a"));
            events.group("g").commit(0);
            TaskQueue jobs = store.createTaskQueue("jobs");
            jobs.enqueue(Task.of("one"));
            jobs.enqueue(Task.of("two"));
            jobs.dequeue(Duration.ofSeconds(30));
            PrometheusScrape scrape = new PrometheusScrape(registry, QueueMeterSource.of(store).orElseThrow());

            Map<String, String> essential = queueLines(text(scrape));
            assertThat(essential)
                    .containsEntry("mikyu_queue_in_total{kind=\"log\",queue=\"events\"}", "1.0")
                    .containsEntry("mikyu_queue_depth{kind=\"task\",queue=\"jobs\"}", "2.0")
                    .containsEntry("mikyu_queue_ready{kind=\"task\",queue=\"jobs\"}", "1.0")
                    .containsEntry("mikyu_queue_inflight{kind=\"task\",queue=\"jobs\"}", "1.0")
                    .containsEntry("mikyu_queue_scheduled{kind=\"task\",queue=\"jobs\"}", "0.0")
                    .containsEntry("mikyu_queue_deadlettered_total{kind=\"task\",queue=\"jobs\"}", "0.0")
                    .containsEntry("mikyu_group_lag{group=\"g\",kind=\"log\",queue=\"events\"}", "1.0")
                    .containsKey("mikyu_queue_disk_bytes{kind=\"task\",queue=\"jobs\"}");
            assertThat(essential.keySet()).noneMatch(k -> k.contains("cache_hits") || k.contains("segments")
                    || k.contains("append_latency") || k.contains("in_bytes") || k.contains("transient")
                    || k.contains("compaction"));

            Map<String, String> detail = queueLines(text(scrape, true));
            assertThat(detail).containsAllEntriesOf(essential)
                    .containsKeys("mikyu_queue_cache_hits_total{kind=\"log\",queue=\"events\"}",
                            "mikyu_queue_segments{kind=\"task\",queue=\"jobs\"}",
                            "mikyu_queue_append_latency_seconds_count{kind=\"task\",queue=\"jobs\"}",
                            "mikyu_queue_in_bytes_total{kind=\"log\",queue=\"events\"}");
        } finally {
            registry.close();
        }
    }

    @Test
    void shouldAskForTheDetailWithTheQueryParameter() {
        assertThat(MetricsEndpoint.wantsQueueDetail(null)).isFalse();
        assertThat(MetricsEndpoint.wantsQueueDetail("detail=queues")).isTrue();
        assertThat(MetricsEndpoint.wantsQueueDetail("a=b&detail=queues")).isTrue();
        assertThat(MetricsEndpoint.wantsQueueDetail("detail=queuesx")).isFalse();
    }

    @Test
    void shouldWriteWholeNumbersAsMicrometerDoes() throws Exception {
        PrometheusMeterRegistry registry = MetricsEndpoint.newRegistry();
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().meterRegistry(registry).perQueueMeters(false)
                .build())) {
            LogQueue q = store.createLog("orders.v2_eu-1");
            for (int i = 0; i < 12; i++) {
                q.append(Entry.of("x" + i));
            }
            String text = text(new PrometheusScrape(registry, QueueMeterSource.of(store).orElseThrow()));
            assertThat(text).contains("mikyu_queue_in_total{kind=\"log\",queue=\"orders.v2_eu-1\"} 12.0\n");
        } finally {
            registry.close();
        }
    }

    /** The same use of a store, its per-queue meters registered or read when scraped. */
    private static String scrape(Path dir, boolean registered) throws Exception {
        PrometheusMeterRegistry registry = MetricsEndpoint.newRegistry();
        try (Mikyu store = Mikyu.open(dir, EngineConfig.builder().meterRegistry(registry)
                .perQueueMeters(registered).build())) {
            LogQueue events = store.createLog("events");
            events.append(Entry.of("a"));
            events.appendBatch(java.util.List.of(Entry.of("b"), Entry.of("c")));
            events.group("g").commit(2);
            events.read(0, 2);
            TaskQueue jobs = store.createTaskQueue("jobs");
            jobs.enqueue(Task.of("one"));
            jobs.enqueue(Task.of("two"));
            LeasedTask t = jobs.dequeue(Duration.ofSeconds(5));
            jobs.ack(t.token());
            return text(new PrometheusScrape(registry, registered ? null
                    : QueueMeterSource.of(store).orElseThrow()), true);
        } finally {
            registry.close();
        }
    }

    private static String text(PrometheusScrape scrape) throws Exception {
        return text(scrape, false);
    }

    private static String text(PrometheusScrape scrape, boolean queueDetail) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        scrape.writeTo(out, queueDetail);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The per-queue lines by sample (or header) name and labels: value (or header text). */
    private static Map<String, String> queueLines(String scrape) {
        Map<String, String> lines = new TreeMap<>();
        for (String line : scrape.split("\n")) {
            String bare = line.startsWith("# ") ? line.substring(line.indexOf(' ', 2) + 1) : line;
            if (!bare.startsWith("mikyu_queue_") && !bare.startsWith("mikyu_group_")) {
                continue;
            }
            if (line.startsWith("# ")) {
                int nameEnd = line.indexOf(' ', line.indexOf(' ', 2) + 1);
                lines.put(line.substring(0, nameEnd), line.substring(nameEnd + 1));
            } else {
                int space = line.lastIndexOf(' ');
                lines.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        return lines;
    }
}
