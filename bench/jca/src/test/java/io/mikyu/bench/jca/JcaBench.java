package io.mikyu.bench.jca;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * mikyu's resource adapter against WildFly's own messaging in the same server, interleaved round by round: in each
 * round every side's message-driven bean consumes a preloaded queue ({@link ConsumeMeasure}), then every side's
 * servlet is loaded by concurrent HTTP clients ({@link SendLoad}). Prints each run, then the medians and the ratio
 * mikyu / Artemis, and writes the same to target/jca-bench/. A run that loses, duplicates or fails a message
 * fails the bench; the ratio is reported, not asserted (README.md).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class JcaBench {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive adapter() {
        return BenchArchives.adapter();
    }

    @Deployment(name = "bench", order = 2, testable = false)
    static WebArchive application() {
        return BenchArchives.application();
    }

    @Deployment(name = "consume-mikyu", managed = false, testable = false)
    static WebArchive mikyuConsumer() {
        return BenchArchives.consumer(Side.MIKYU);
    }

    @Deployment(name = "consume-artemis", managed = false, testable = false)
    static WebArchive artemisConsumer() {
        return BenchArchives.consumer(Side.ARTEMIS);
    }

    @ArquillianResource
    private Deployer deployer;

    private final StringWriter report = new StringWriter();
    private final PrintWriter out = new PrintWriter(report, true);

    @Test
    void interleavedRounds() throws Exception {
        int rounds = Integer.getInteger("bench.rounds", 3);
        int warmupRounds = Integer.getInteger("bench.warmup-rounds", 1);
        int messages = Integer.getInteger("bench.messages", 20_000);
        int clients = Integer.getInteger("bench.clients", 16);
        int size = Integer.getInteger("bench.size", 1024);
        Duration warmup = Duration.ofSeconds(Integer.getInteger("bench.warmup", 5));
        Duration window = Duration.ofSeconds(Integer.getInteger("bench.duration", 20));
        List<Side> sides = Arrays.stream(System.getProperty("bench.sides", "mikyu,artemis").split(","))
                .map(Side::of).toList();
        BenchHttp http = new BenchHttp(Integer.getInteger("bench.http-port", 33080));
        ConsumeMeasure consume = new ConsumeMeasure(http, deployer, messages, size, Duration.ofSeconds(900));
        SendLoad send = new SendLoad(http, clients, warmup, window, size);

        print("jca bench " + Instant.now() + ": " + sides + ", " + warmupRounds + " warm-up round(s), " + rounds
                + " measured rounds; " + Runtime.getRuntime()
                .availableProcessors() + " cores, " + ServerFacts.artemisJournal());
        print("  consume: " + messages + " x " + size + " B persistent, preloaded (100 a transaction), then the bean"
                + " deployed (CMT Required, default maxSession); send: " + clients + " clients, one message a JTA"
                + " transaction, " + warmup.toSeconds() + " s warm-up, " + window.toSeconds() + " s measured");
        Map<Side, List<Double>> consumeRates = new EnumMap<>(Side.class);
        Map<Side, List<Double>> sendRates = new EnumMap<>(Side.class);
        // The warm-up rounds run the same work, so that the server's JIT has compiled both sides' paths before
        // anything is counted (a first round on a cold server measured a fifth of the later ones): printed, not
        // counted.
        for (int round = 1 - warmupRounds; round <= rounds; round++) {
            String label = round < 1 ? "warm-up" : "round " + round;
            boolean counted = round >= 1;
            for (Side side : sides) {
                String load = ServerFacts.loadAverage();
                ConsumeMeasure.Result r = consume.run(side);
                if (counted) {
                    consumeRates.computeIfAbsent(side, s -> new ArrayList<>()).add(r.perSecond());
                }
                print(String.format("  %-8s consume  %-8s %9.1f msg/s  (%d in %.1f s; deploy to done %.1f s;"
                        + " preload %.0f msg/s)  load %s -> %s", label, side.id, r.perSecond(), messages, r.seconds(),
                        r.untilDoneSeconds(), r.preloadPerSecond(), load, ServerFacts.loadAverage()));
            }
            for (Side side : sides) {
                String load = ServerFacts.loadAverage();
                SendLoad.Result r = send.run(side);
                String drained = http.post("drain?side=" + side.id + "&queue=send", Duration.ofSeconds(900));
                if (Long.parseLong(drained) != r.total()) {
                    throw new AssertionError(side.id + ": " + r.total() + " sends answered, " + drained
                            + " messages on the queue");
                }
                if (counted) {
                    sendRates.computeIfAbsent(side, s -> new ArrayList<>()).add(r.perSecond());
                }
                print(String.format("  %-8s send     %-8s %9.1f msg/s  (%d in %d s; p50 %.1f ms, p99 %.1f ms;"
                        + " %d sent and drained)  load %s -> %s", label, side.id, r.perSecond(), r.measured(),
                        window.toSeconds(), r.p50Millis(), r.p99Millis(), r.total(), load, ServerFacts.loadAverage()));
            }
        }
        print("");
        summary("consume", consumeRates, sides);
        summary("send", sendRates, sides);
        write();
    }

    private void summary(String measure, Map<Side, List<Double>> rates, List<Side> sides) {
        for (Side side : sides) {
            print(String.format("  %-7s %-8s median %9.1f msg/s  (runs: %s)", measure, side.id, median(rates.get(side)),
                    rates.get(side).stream().map(r -> String.format("%.1f", r)).toList()));
        }
        if (rates.containsKey(Side.MIKYU) && rates.containsKey(Side.ARTEMIS)) {
            List<Double> m = rates.get(Side.MIKYU);
            List<Double> a = rates.get(Side.ARTEMIS);
            List<String> pairs = new ArrayList<>();
            for (int i = 0; i < m.size(); i++) {
                pairs.add(String.format("%.2f", m.get(i) / a.get(i)));
            }
            double ratio = median(m) / median(a);
            print(String.format("  %-7s ratio mikyu/artemis of the medians %.2f (per round: %s)", measure, ratio, pairs));
            print(String.format("JCA_BENCH {\"measure\":\"%s\",\"mikyu\":%.1f,\"artemis\":%.1f,\"ratio\":%.2f}",
                    measure, median(m), median(a), ratio));
        }
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private void print(String line) {
        System.out.println(line);
        out.println(line);
    }

    private void write() throws IOException {
        Path dir = Path.of(System.getProperty("bench.out", "target/jca-bench"));
        Files.createDirectories(dir);
        Path file = dir.resolve("result-" + STAMP.format(Instant.now()) + ".txt");
        Files.writeString(file, report.toString());
        System.out.println("written to " + file);
    }
}
