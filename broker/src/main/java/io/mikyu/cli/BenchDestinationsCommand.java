package io.mikyu.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mikyu.broker.server.MetricsEndpoint;
import io.mikyu.broker.server.PrometheusScrape;
import io.mikyu.cli.bench.DestinationsBench;
import io.mikyu.cli.bench.JsonObject;
import io.mikyu.cli.bench.ProcessProbe;
import io.mikyu.cli.bench.PrometheusText;
import io.mikyu.cli.units.Units;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.spi.QueueMeterSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

@Command(name = "destinations", mixinStandardHelpOptions = true,
        description = {"Measures a store with many destinations, stored as the JMS provider stores them: --queues"
                + " task queues (JMS queues) and --topics log queues with one consumer group each (topics with a"
                + " durable subscription).",
            "Creates them, sends one message through each and receives it, then reports heap in use (after a full"
                + " GC), open file descriptors, the CPU the process uses while idle for --idle, and how long a"
                + " scrape of every meter (the daemon's /metrics) takes. Embedded, it then closes the store,"
                + " reopens it (timed), measures again and sends one more message through each. The scrape is timed"
                + " as /metrics serves it (each queue's essential families) and with every queue's detail"
                + " (/metrics?detail=queues). --reuse measures a store an earlier run kept in --data-dir, from the"
                + " reopen on.",
            "With --target URI --metrics URL it measures a running daemon instead (its figures read from its"
                + " /metrics); restart the daemon and run again to measure its reopen."},
        footer = {"", "Examples:",
            "  mikyu bench destinations --queues 1000 --topics 1000",
            "  mikyu bench destinations --queues 10000 --topics 10000 --data-dir /tmp/many --idle 60s",
            "  mikyu bench destinations --queues 10000 --topics 10000 --data-dir /tmp/many --reuse",
            "  mikyu bench destinations --queues 10000 --topics 10000 --threads 8",
            "  mikyu bench destinations --target tcp://127.0.0.1:7420 --metrics http://127.0.0.1:9464/metrics"})
final class BenchDestinationsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--queues", paramLabel = "N", defaultValue = "1000",
            description = "Task queues dest-q-00000.. (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = "--topics", paramLabel = "N", defaultValue = "1000",
            description = "Log queues dest-t-00000.., each with a consumer group (default: ${DEFAULT-VALUE}).")
    int topics;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "Threads creating the destinations at once, as the tenants of an application would"
                    + " (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--idle", paramLabel = "DURATION", defaultValue = "10s", converter = Units.DurationConverter.class,
            description = "How long to measure the CPU used while nothing happens (default: ${DEFAULT-VALUE}).")
    Duration idle;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Store to create them in (kept). Default: a new temporary directory, deleted afterwards.")
    Path dataDir;

    @Option(names = "--reuse",
            description = "Measure the store already in --data-dir (made by an earlier run with the same --queues and"
                    + " --topics): open it, measure, send one message through each; nothing is created.")
    boolean reuse;

    @Option(names = "--target", paramLabel = "URI", description = "A daemon to measure instead of an embedded store.")
    String target;

    @Option(names = "--metrics", paramLabel = "URL",
            description = "The daemon's metrics endpoint (with --target), such as http://127.0.0.1:9464/metrics.")
    URI metricsUrl;

    private final JsonObject json = new JsonObject();

    @Override
    public Integer call() throws Exception {
        DestinationsBench bench;
        try {
            bench = new DestinationsBench(queues, topics, threads);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (target != null && dataDir != null) {
            throw new ParameterException(spec.commandLine(), "--data-dir is for an embedded store; a daemon has its own");
        }
        if ((target == null) != (metricsUrl == null)) {
            throw new ParameterException(spec.commandLine(), "--target and --metrics go together: the daemon and"
                    + " where it publishes its meters (its --metrics-port)");
        }
        if (reuse && (dataDir == null || !Files.isDirectory(dataDir))) {
            throw new ParameterException(spec.commandLine(), "--reuse needs the --data-dir of an existing store");
        }
        json.put("queues", queues).put("topics", topics).put("threads", threads)
                .put("access", target == null ? "embedded" : "remote").put("reuse", reuse);
        if (target != null) {
            measureDaemon(bench);
        } else {
            Path dir = dataDir != null ? dataDir : Files.createTempDirectory("mikyu-destinations-");
            try {
                measureEmbedded(bench, dir);
            } finally {
                if (dataDir == null) {
                    BenchRunCommand.deleteRecursively(dir, err());
                }
            }
        }
        out().println("BENCH_DESTINATIONS_RESULT " + json);
        out().flush();
        return 0;
    }

    private void measureEmbedded(DestinationsBench bench, Path dir) throws InterruptedException {
        long fdsBefore = ProcessProbe.openFileDescriptors();
        long heapBefore = ProcessProbe.heapAfterGc();
        report("before", "open files %d, heap %s", fdsBefore, Units.formatBytes(heapBefore));
        json.put("fds_before", fdsBefore).put("heap_before_bytes", heapBefore);

        if (reuse) {
            measureReopened(bench, dir);
            return;
        }
        PrometheusMeterRegistry registry = MetricsEndpoint.newRegistry();
        long openStart = System.nanoTime();
        Mikyu store = Mikyu.open(dir, EngineConfig.builder().meterRegistry(registry).perQueueMeters(false).build());
        double closeMillis;
        try {
            report("open", "%.0f ms (empty store)", millisSince(openStart));
            double created = bench.create(store);
            report("create", "%.0f ms", created);
            json.put("create_ms", created);
            double round = bench.roundTrip(store, 1);
            report("round trip", "%.0f ms (one message through each)", round);
            json.put("round_trip_ms", round);
            measureHere("used", new PrometheusScrape(registry, QueueMeterSource.of(store).orElseThrow()));
        } finally {
            long closeStart = System.nanoTime();
            store.close();
            closeMillis = millisSince(closeStart);
        }
        report("close", "%.0f ms", closeMillis);
        json.put("close_ms", closeMillis);
        measureReopened(bench, dir);
    }

    /** Opens the store in {@code dir}, measures it with every queue open, then sends one message through each. */
    private void measureReopened(DestinationsBench bench, Path dir) throws InterruptedException {
        PrometheusMeterRegistry reopenedRegistry = MetricsEndpoint.newRegistry();
        long reopenStart = System.nanoTime();
        Mikyu reopened = Mikyu.open(dir, EngineConfig.builder().meterRegistry(reopenedRegistry)
                .perQueueMeters(false).build());
        try {
            double reopenMillis = millisSince(reopenStart);
            report("reopen", "%.0f ms", reopenMillis);
            json.put("reopen_ms", reopenMillis);
            // the store opens its queues on first use and in the background: stats() opens the rest, so that
            // what follows measures a store with every queue open, as before the reopen
            reopened.stats();
            double allOpenMillis = millisSince(reopenStart);
            report("every queue open", "%.0f ms after the reopen began", allOpenMillis);
            json.put("all_open_ms", allOpenMillis);
            measureHere("reopened", new PrometheusScrape(reopenedRegistry,
                    QueueMeterSource.of(reopened).orElseThrow()));
            double round = bench.roundTrip(reopened, 2);
            report("round trip", "%.0f ms (after the reopen)", round);
            json.put("reopened_round_trip_ms", round);
        } finally {
            reopened.close();
        }
    }

    /** Heap, descriptors, scrape and idle CPU of this process, under {@code phase} in the report. */
    private void measureHere(String phase, PrometheusScrape scraped) throws InterruptedException {
        long heap = ProcessProbe.heapAfterGc();
        long fds = ProcessProbe.openFileDescriptors();
        // Streamed and counted, as the daemon's /metrics streams it: the text of many queues is not held at once.
        LongSupplier scrape = () -> {
            CountingOutputStream out = new CountingOutputStream();
            try {
                scraped.writeTo(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.count;
        };
        double scrapeMillis = timeScrapes(scrape);
        long scrapeBytes = scrape.getAsLong();
        report(phase, "open files %d, heap %s, scrape %.0f ms (%s)", fds, Units.formatBytes(heap), scrapeMillis,
                Units.formatBytes(scrapeBytes));
        json.put(phase + "_scrape_bytes", scrapeBytes);
        // what /metrics?detail=queues serves: every family of every queue
        LongSupplier detailScrape = () -> {
            CountingOutputStream out = new CountingOutputStream();
            try {
                scraped.writeTo(out, true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.count;
        };
        double detailMillis = timeScrapes(detailScrape);
        long detailBytes = detailScrape.getAsLong();
        report(phase, "scrape with every queue's detail %.0f ms (%s)", detailMillis, Units.formatBytes(detailBytes));
        json.put(phase + "_detail_scrape_ms", detailMillis).put(phase + "_detail_scrape_bytes", detailBytes);
        long cpuStart = ProcessProbe.cpuTimeNanos();
        long idleStart = System.nanoTime();
        Thread.sleep(idle.toMillis()); // the measurement is of doing nothing
        double cpuPercent = 100.0 * (ProcessProbe.cpuTimeNanos() - cpuStart) / (System.nanoTime() - idleStart);
        report(phase, "idle CPU %.1f %% of one core over %s", cpuPercent, idle);
        json.put(phase + "_heap_bytes", heap).put(phase + "_fds", fds).put(phase + "_scrape_ms", scrapeMillis)
                .put(phase + "_idle_cpu_percent", cpuPercent);
    }

    private void measureDaemon(DestinationsBench bench) throws InterruptedException, IOException {
        HttpClient http = HttpClient.newHttpClient();
        Supplier<String> scrape = () -> get(http);
        try (Mikyu store = TargetOption.dial(target, false)) {
            double created = bench.create(store);
            report("create", "%.0f ms", created);
            json.put("create_ms", created);
            double round = bench.roundTrip(store, 1);
            report("round trip", "%.0f ms (one message through each)", round);
            json.put("round_trip_ms", round);
        }
        double scrapeMillis = timeScrapes(() -> scrape.get().length());
        String before = scrape.get();
        long idleStart = System.nanoTime();
        Thread.sleep(idle.toMillis());
        String after = scrape.get();
        double cpu = PrometheusText.sum(after, "process_cpu_time_ns_total")
                - PrometheusText.sum(before, "process_cpu_time_ns_total");
        double cpuPercent = 100.0 * cpu / (System.nanoTime() - idleStart);
        long heap = (long) PrometheusText.sum(after, "jvm_memory_used_bytes", "area=\"heap\"");
        long fds = (long) PrometheusText.sum(after, "process_files_open_files");
        report("daemon", "open files %d, heap %s (not after a GC), scrape %.0f ms (%s), idle CPU %.1f %% of one"
                        + " core over %s", fds, Units.formatBytes(heap), scrapeMillis,
                Units.formatBytes(after.length()), cpuPercent, idle);
        json.put("used_heap_bytes", heap).put("used_fds", fds).put("used_scrape_ms", scrapeMillis)
                .put("used_idle_cpu_percent", cpuPercent).put("scrape_bytes", after.length());
    }

    /** The slowest of three scrapes after a first one (which loads classes and sizes buffers), in milliseconds. */
    private static double timeScrapes(LongSupplier scrape) {
        scrape.getAsLong();
        double slowest = 0;
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            scrape.getAsLong();
            slowest = Math.max(slowest, millisSince(start));
        }
        return slowest;
    }

    private String get(HttpClient http) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(metricsUrl).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new CommandException(metricsUrl + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new CommandException("cannot read " + metricsUrl + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandException("interrupted while reading " + metricsUrl, e);
        }
    }

    private void report(String phase, String format, Object... args) {
        err().printf(Locale.ROOT, "%-12s " + format + "%n", prepend(phase, args));
        err().flush();
    }

    private static Object[] prepend(Object first, Object[] rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private static double millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** Counts what a scrape writes and keeps none of it. */
    private static final class CountingOutputStream extends java.io.OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
