package io.mikyu.bench.jms;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Short real runs of the bench on both providers, in this JVM, checking what a run reports about itself. */
class JmsBenchTest {

    @ParameterizedTest
    @CsvSource({
            "mikyu-vm, q_persist_sync_4p4c",
            "artemis-vm, q_persist_sync_4p4c",
            "mikyu-vm, t_nonpersist_1p2s",
            "artemis-vm, q_persist_tx64_4p4c",
    })
    void aShortRunReceivesEveryCommittedMessageAndSaysSo(String provider, String workload, @TempDir Path dir)
            throws Exception {
        Options options = Options.parse(new String[] {"--case", workload, "--jndi", "jndi/" + provider + ".properties",
                "--dir", dir.toString(), "--duration", "1", "--warmup", "0"});
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = System.out;
        int status;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            status = JmsBench.run(options);
        } finally {
            System.setOut(out);
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        out.print(output);

        assertThat(status).isZero();
        String result = output.lines().filter(l -> l.startsWith(JmsBench.RESULT_PREFIX)).findFirst().orElseThrow();
        assertThat(result).contains("\"case\":\"" + workload + "\"", "\"verified\":true", "\"lost\":0",
                "\"duplicates\":0");
        long sent = number(result, "sent");
        assertThat(sent).isPositive();
        long expected = workload.startsWith("t_") ? 2 * sent : sent;
        assertThat(number(result, "received")).isEqualTo(expected);
        if (provider.startsWith("artemis")) {
            assertThat(result).containsPattern("\"journal\":\"(ASYNCIO|NIO)\"");
        }
    }

    @ParameterizedTest
    @CsvSource({"mikyu-vm", "artemis-vm"})
    void aBacklogRunProducesEverythingFirstThenDrainsItAndReportsTheHeap(String provider, @TempDir Path dir)
            throws Exception {
        Options options = Options.parse(new String[] {"--case", "q_backlog_persist_async_4p4c",
                "--jndi", "jndi/" + provider + ".properties", "--dir", dir.toString(), "--messages", "2000"});
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = System.out;
        int status;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            status = JmsBench.run(options);
        } finally {
            System.setOut(out);
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        out.print(output);

        assertThat(status).isZero();
        String result = output.lines().filter(l -> l.startsWith(JmsBench.RESULT_PREFIX)).findFirst().orElseThrow();
        assertThat(result).contains("\"verified\":true", "\"lost\":0", "\"duplicates\":0");
        assertThat(number(result, "sent")).isEqualTo(2000);
        assertThat(number(result, "received")).isEqualTo(2000);
        assertThat(number(result, "producePerS")).isPositive();
        assertThat(number(result, "drainPerS")).isPositive();
        assertThat(number(result, "produceHeapPeakMB")).isPositive();
    }

    private static long number(String json, String field) {
        var m = java.util.regex.Pattern.compile("\"" + field + "\":(\\d+)").matcher(json);
        assertThat(m.find()).as(field).isTrue();
        return Long.parseLong(m.group(1));
    }
}
