package io.mikyu.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class BenchCommandsTest {

    @TempDir
    Path dir;

    @Test
    void aSmallRunConsumesEveryRecordAndEndsWithABenchResultLine() {
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--bytes", "2MiB", "--workers", "2");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = run.outLines();
        String last = lines.get(lines.size() - 1);
        assertThat(last).startsWith("BENCH_RESULT {").endsWith("}");
        assertThat(lines.stream().filter(l -> l.startsWith("BENCH_RESULT"))).hasSize(1);
        String json = last.substring("BENCH_RESULT ".length());
        assertThat(number(json, "produced_msgs")).isEqualTo(2048);
        assertThat(number(json, "consumed_msgs")).isEqualTo(2048);
        assertThat(json).contains("\"verified\":true", "\"workers\":2", "\"message_size\":1024", "\"durability\":\"async\"");
        for (String key : List.of("produce_msgs_per_s", "produce_mb_per_s", "consume_msgs_per_s", "consume_mb_per_s",
                "p50_us", "p99_us", "p999_us", "cache_hit_rate", "requests_per_commit")) {
            assertThat(number(json, key)).as(key).isGreaterThanOrEqualTo(0);
        }
        assertThat(number(json, "produce_msgs_per_s")).isPositive();
    }

    @Test
    void aRunReportsTheCpuItUsedAndItsCollectorPauses() {
        // Long enough to take more than the OS's accounting tick of CPU time.
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--bytes", "32MiB", "--workers", "2");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("cpu       [0-9.]+ of [0-9]+ cores \\([0-9]+ %\\).*GC [0-9]+ pauses");
        String json = run.outLines().get(run.outLines().size() - 1).substring("BENCH_RESULT ".length());
        assertThat(number(json, "cpu_cores")).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(number(json, "cpu_s")).isPositive();
        assertThat(number(json, "cpu_cores_used")).isPositive();
        assertThat(number(json, "wall_s")).isPositive();
        for (String key : List.of("cpu_utilisation", "gc_pauses", "gc_pause_s", "heap_committed_mb")) {
            assertThat(number(json, key)).as(key).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void aRunInAGivenDataDirectoryKeepsItsQueuesAndReopenTimesTheStore() {
        Path store = dir.resolve("store");
        Cli.Run bench = Cli.runExactly(null, "bench", "run", "--bytes", "256KiB", "--workers", "3", "--batch", "1",
                "--queues", "2", "--durability", "sync", "--message-size", "100", "--data-dir", store.toString());

        assertThat(bench.exitCode()).as(bench.err()).isZero();
        assertThat(bench.out()).contains("\"verified\":true", "\"queues\":2", "\"batch\":1");
        assertThat(new Cli(store).run("list").outLines()).contains("log/bench-0", "log/bench-1");

        Cli.Run reopen = Cli.runExactly(null, "bench", "reopen", "--data-dir", store.toString());

        assertThat(reopen.exitCode()).as(reopen.err()).isZero();
        assertThat(reopen.outLines().get(reopen.outLines().size() - 1)).startsWith("BENCH_REOPEN_RESULT {\"open_ms\":");
    }

    @Test
    void destinationsCreatesUsesAndReopensEachQueueAndTopic() {
        Path store = dir.resolve("many");
        Cli.Run run = Cli.runExactly(null, "bench", "destinations", "--queues", "3", "--topics", "2", "--idle", "0s",
                "--data-dir", store.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        String json = run.outLines().get(run.outLines().size() - 1).substring("BENCH_DESTINATIONS_RESULT ".length());
        assertThat(json).contains("\"queues\":3", "\"topics\":2", "\"access\":\"embedded\"");
        for (String key : new String[] {"create_ms", "round_trip_ms", "used_heap_bytes", "used_scrape_ms",
            "close_ms", "reopen_ms", "reopened_round_trip_ms"}) {
            assertThat(number(json, key)).as(key).isPositive();
        }
        List<String> listed = new Cli(store).run("list").outLines();
        assertThat(listed).contains("log/dest-t-00000", "log/dest-t-00001")
                .anyMatch(line -> line.startsWith("task/dest-q-00000 "))
                .anyMatch(line -> line.startsWith("task/dest-q-00002 "));
        assertThat(new Cli(store).run("groups", "dest-t-00001").out()).contains("subscription");
    }

    @Test
    void destinationsOfADaemonNeedItsMetricsEndpoint() {
        Cli.Run run = Cli.runExactly(null, "bench", "destinations", "--target", "tcp://127.0.0.1:1");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--target and --metrics go together");
    }

    @Test
    void remoteAccessNeedsATarget() {
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--access", "remote");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().contains("--access remote needs --target URI");
    }

    @Test
    void aRemoteRunMeasuresADaemonAndKeepsItsQueues() {
        try (InProcessDaemon daemon = new InProcessDaemon(dir)) {
            Cli.Run run = Cli.runExactly(null, "bench", "run", "--access", "remote", "--target", daemon.uri(),
                    "--bytes", "2MiB", "--workers", "2");

            assertThat(run.exitCode()).as(run.err()).isZero();
            String json = run.outLines().get(run.outLines().size() - 1).substring("BENCH_RESULT ".length());
            assertThat(number(json, "produced_msgs")).isEqualTo(2048);
            assertThat(number(json, "consumed_msgs")).isEqualTo(2048);
            assertThat(json).contains("\"verified\":true", "\"access\":\"remote\"", "\"target\":\"" + daemon.uri());
            assertThat(daemon.store().log("bench-0").endOffset()).isEqualTo(2048);
        }
    }

    @Test
    void aSmallTaskRunAcksEveryTaskOnceAndEndsWithABenchResultLine() {
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--kind", "task", "--bytes", "2MiB", "--workers", "2");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = run.outLines();
        String last = lines.get(lines.size() - 1);
        assertThat(last).startsWith("BENCH_RESULT {").endsWith("}");
        assertThat(run.out()).contains("verified  every task acked exactly once", "enqueue   p50");
        String json = last.substring("BENCH_RESULT ".length());
        assertThat(number(json, "produced_msgs")).isEqualTo(2048);
        assertThat(number(json, "consumed_msgs")).isEqualTo(2048);
        assertThat(json).contains("\"verified\":true", "\"kind\":\"task\"", "\"workers\":2", "\"consumers\":1");
        for (String key : List.of("produce_msgs_per_s", "produce_mb_per_s", "consume_msgs_per_s", "consume_mb_per_s",
                "p50_us", "p99_us", "p999_us", "cache_hit_rate", "requests_per_commit")) {
            assertThat(number(json, key)).as(key).isGreaterThanOrEqualTo(0);
        }
        assertThat(number(json, "consume_msgs_per_s")).isPositive();
    }

    @Test
    void aTaskRunWithSeveralQueuesAndConsumersInAGivenDataDirectoryCanBeRunAgain() {
        Path store = dir.resolve("store");
        String[] args = {"bench", "run", "--kind", "task", "--bytes", "200KiB", "--message-size", "100",
            "--workers", "3", "--queues", "2", "--consumers", "3", "--batch", "7", "--data-dir", store.toString()};

        Cli.Run first = Cli.runExactly(null, args);
        Cli.Run second = Cli.runExactly(null, args);

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(second.out()).contains("\"verified\":true", "\"queues\":2", "\"consumers\":3");
        assertThat(new Cli(store).run("list", "--type", "task").outLines())
                .containsExactly("bench-0", "bench-0/dlq", "bench-1", "bench-1/dlq");
    }

    @ParameterizedTest
    @ValueSource(strings = {"log", "task"})
    void aWarmUpRunsProducersAndConsumersOnQueuesItDeletesAndCountsNothingOfItsOwn(String kind) {
        Path store = dir.resolve("store");
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--kind", kind, "--bytes", "1MiB", "--workers", "2",
                "--warmup", "1s", "--data-dir", store.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("bench: warming up for 1 s");
        String json = run.outLines().get(run.outLines().size() - 1).substring("BENCH_RESULT ".length());
        assertThat(number(json, "produced_msgs")).isEqualTo(1024);
        assertThat(number(json, "consumed_msgs")).isEqualTo(1024);
        assertThat(json).contains("\"verified\":true", "\"warmup_s\":1");
        assertThat(new Cli(store).run("list", "--type", kind).outLines()).noneMatch(l -> l.contains("warmup"));
    }

    @Test
    void taskProducersWithoutConsumersLeaveTheirTasks() {
        Path store = dir.resolve("store");
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--kind", "task", "--bytes", "10KiB", "--workers", "2",
                "--consumers", "0", "--data-dir", store.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("consume   skipped");
        assertThat(new Cli(store).run("list").outLines()).contains("task/bench-0 ready=10 scheduled=0 in-flight=0");
    }

    @Test
    void aBacklogRunProducesFirstReopensThenDrainsAndReportsHeapGcAndReopen() {
        Path store = dir.resolve("store");
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--kind", "task", "--backlog", "--bytes", "2MiB",
                "--workers", "2", "--consumers", "2", "--data-dir", store.toString(),
                "--batch", "16");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("verified  every task acked exactly once", "backlog   produced with no consumer");
        String json = run.outLines().get(run.outLines().size() - 1).substring("BENCH_RESULT ".length());
        assertThat(number(json, "produced_msgs")).isEqualTo(2048);
        assertThat(number(json, "consumed_msgs")).isEqualTo(2048);
        assertThat(json).contains("\"backlog\":true", "\"verified\":true");
        for (String key : List.of("reopen_s", "heap_peak_mb", "heap_after_gc_mb", "gc_ms", "gc_count")) {
            assertThat(number(json, key)).as(key).isGreaterThanOrEqualTo(0);
        }
        assertThat(number(json, "heap_peak_mb")).isPositive();
        assertThat(new Cli(store).run("list").outLines()).contains("task/bench-0 ready=0 scheduled=0 in-flight=0");
    }

    @Test
    void aBacklogRunIsForTaskQueues() {
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--kind", "log", "--backlog", "--bytes", "10KiB");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--backlog is for --kind task");
    }

    @Test
    void tooFewBytesForTheWorkersIsAUsageError() {
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--bytes", "1KiB", "--workers", "4");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--bytes must allow at least one message per worker");
    }

    @Test
    void diskBenchReportsBandwidthAndFsyncLatencyAndDeletesItsFiles() throws IOException {
        Cli.Run run = Cli.runExactly(null, "bench", "disk", "--dir", dir.toString(), "--size", "4MiB",
                "--iterations", "20");

        assertThat(run.exitCode()).as(run.err()).isZero();
        String last = run.outLines().get(run.outLines().size() - 1);
        assertThat(last).startsWith("BENCH_DISK_RESULT {");
        assertThat(number(last, "seq_write_mb_per_s")).isPositive();
        assertThat(number(last, "fdatasync_overwrite_p50_us")).isPositive();
        assertThat(number(last, "fdatasync_append_p50_us")).isPositive();
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).isEmpty();
        }
    }

    private static double number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(-?[0-9.]+)").matcher(json);
        assertThat(m.find()).as("%s in %s", key, json).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
