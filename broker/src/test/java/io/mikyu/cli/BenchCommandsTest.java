package io.mikyu.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void remoteAccessIsNotAvailableUntilTheBrokerExists() {
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--access", "remote");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().contains("not available until the mikyu broker exists");
    }

    @Test
    void taskQueuesAreNotAvailableYet() {
        Cli.Run run = Cli.runExactly(null, "bench", "run", "--kind", "task");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().contains("--kind task is not available yet");
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
