package io.mikyu.bench.jms;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One run of one case on one provider, in this JVM: the provider is a JNDI properties file ({@link ProviderConfig}),
 * the measuring ({@link Run}) speaks {@code jakarta.jms} only. Prints a summary, then one line
 * {@code JMSBENCH_RESULT {json}}. Exit status: 0 verified, 2 lost, duplicated or unexpected messages, 1 a failure,
 * 64 a wrong command line. {@code bench/jms/jms-ratio.sh} runs the providers side by side.
 */
public final class JmsBench {

    static final String RESULT_PREFIX = "JMSBENCH_RESULT ";

    private JmsBench() {
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("jms-bench: " + e.getMessage());
            System.err.println(Options.USAGE);
            System.exit(64);
            return;
        }
        int status;
        try {
            status = run(options);
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        System.out.flush();
        // providers may leave non-daemon threads behind
        System.exit(status);
    }

    static int run(Options options) throws Exception {
        boolean temporary = options.dir == null;
        Path dir = temporary ? Files.createTempDirectory("jms-bench-") : Files.createDirectories(options.dir);
        try {
            Map<String, String> placeholders = new HashMap<>();
            placeholders.put("dir", dir.toAbsolutePath().toString());
            placeholders.put("durability", options.workload.durability.urlValue());
            if (options.port > 0) {
                placeholders.put("port", Integer.toString(options.port));
            }
            ProviderConfig provider = ProviderConfig.load(options.jndiFile, placeholders);
            Map<String, Object> serverDetails = new LinkedHashMap<>();
            ArtemisServer embedded = null;
            if (provider.embed() != null) {
                if (!provider.embed().equals("artemis")) {
                    throw new IllegalArgumentException("bench.embed=" + provider.embed() + ": only artemis is known");
                }
                embedded = new ArtemisServer(dir.resolve("artemis"), options.workload.durability, 0);
                serverDetails.putAll(embedded.details());
            }
            Run.Result result;
            try {
                result = options.workload.backlog()
                        ? new BacklogRun(options.workload, options, provider.jndiEnvironment()).execute()
                        : new Run(options.workload, options, provider.jndiEnvironment()).execute();
            } finally {
                if (embedded != null) {
                    embedded.close();
                }
            }
            Map<String, Object> fields = new LinkedHashMap<>(result.fields());
            fields.put("jndi", options.jndiFile.getFileName().toString());
            fields.putAll(serverDetails);
            System.out.println(summary(options.workload, fields));
            System.out.println(RESULT_PREFIX + Json.write(fields));
            return result.ok() ? 0 : 2;
        } finally {
            if (temporary) {
                deleteTree(dir);
            }
        }
    }

    private static String summary(Case workload, Map<String, Object> f) {
        if (workload.backlog()) {
            return backlogSummary(workload, f);
        }
        return String.format("%s: %s%n  provider %s (%s)%s%n"
                        + "  %s msgs/s received, %s sent, in %s s after %s s warm-up%n"
                        + "  latency us: p50 %s  p90 %s  p99 %s  p99.9 %s  max %s%n"
                        + "  sent %s, expected %s, received %s: lost %s, duplicates %s, unexpected %s, foreign %s,"
                        + " redelivered %s -> %s",
                workload.label(), workload.describe(), f.get("provider"), f.get("jndi"),
                f.containsKey("journal") ? ", journal " + f.get("journal") : "",
                f.get("msgsPerS"), f.get("sentPerS"), f.get("durationS"), f.get("warmupS"),
                f.get("p50us"), f.get("p90us"), f.get("p99us"), f.get("p999us"), f.get("maxUs"),
                f.get("sent"), f.get("expected"), f.get("received"), f.get("lost"), f.get("duplicates"),
                f.get("unexpected"), f.get("foreign"), f.get("redelivered"),
                Boolean.TRUE.equals(f.get("verified")) ? "verified" : "FAILED");
    }

    private static String backlogSummary(Case workload, Map<String, Object> f) {
        return String.format("%s: %s%n  provider %s (%s)%s, max heap %s MB%n"
                        + "  produce %s msgs in %s s: %s msgs/s, heap peak %s MB (after GC %s MB), GC %s ms (%s)%n"
                        + "  drain %s msgs/s in %s s, heap peak %s MB (after GC %s MB), GC %s ms (%s)%n"
                        + "  sent %s, received %s: lost %s, duplicates %s, unexpected %s, foreign %s,"
                        + " redelivered %s -> %s",
                workload.label(), workload.describe(), f.get("provider"), f.get("jndi"),
                f.containsKey("journal") ? ", journal " + f.get("journal") : "", f.get("maxHeapMB"),
                f.get("messages"), f.get("produceS"), f.get("producePerS"), f.get("produceHeapPeakMB"),
                f.get("produceLiveHeapPeakMB"), f.get("produceGcMs"), f.get("produceGcCount"),
                f.get("drainPerS"), f.get("drainS"), f.get("drainHeapPeakMB"), f.get("drainLiveHeapPeakMB"),
                f.get("drainGcMs"),
                f.get("drainGcCount"),
                f.get("sent"), f.get("received"), f.get("lost"), f.get("duplicates"), f.get("unexpected"),
                f.get("foreign"), f.get("redelivered"),
                Boolean.TRUE.equals(f.get("verified")) ? "verified" : "FAILED");
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
