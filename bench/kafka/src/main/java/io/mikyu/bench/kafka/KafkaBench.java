package io.mikyu.bench.kafka;

import io.mikyu.kafka.support.KafkaTestCluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * mikyu on Kafka against plain Kafka clients, in one JVM on one in-JVM cluster (the tests' {@link KafkaTestCluster}:
 * 3 brokers, 1 controller, replication factor 3, {@code min.insync.replicas=2}), started once: for each round, for
 * each workload (a log, a queue), one run per side in turn — plain Kafka producers and consumers (the ceiling),
 * mikyu's JMS provider on {@code kafka://}, the same JMS load on the embedded engine ({@code vm://}, durability
 * sync) — each on fresh topics or a fresh directory. Prints each run, then the medians and the ratios, and one
 * {@code KAFKABENCH_RESULT {json}} line per run. Exits 2 if a run failed or did not verify. See README.md.
 */
public final class KafkaBench {

    private static final AtomicInteger RUNS = new AtomicInteger();

    private KafkaBench() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o;
        try {
            o = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("kafka-bench: " + e.getMessage());
            System.exit(64);
            return;
        }
        int failures;
        try {
            failures = run(o);
        } finally {
            KafkaTestCluster.stop();
        }
        // the brokers' and clients' threads outlive close() for a while
        System.exit(failures == 0 ? 0 : 2);
    }

    private static int run(BenchOptions o) throws Exception {
        String loadAtStart = LoadRun.loadAverage();
        long start = System.nanoTime();
        String bootstrap = KafkaTestCluster.get().bootstrapServers();
        System.out.printf("in-JVM cluster (3 brokers, 1 controller, RF 3, min.insync.replicas 2) up in %.1f s"
                        + " (load %s); %d rounds of %s on %s, %d s measured after %d s warm-up, %d producers,"
                        + " %d queue consumers, %d B messages%n", (System.nanoTime() - start) / 1e9, loadAtStart,
                o.reps(), o.workloads().stream().map(w -> w.label).toList(), o.sides(), o.durationSeconds(),
                o.warmupSeconds(), o.producers(), o.consumers(), o.size());
        byte[] body = new byte[o.size()];
        ThreadLocalRandom.current().nextBytes(body);
        List<Result> results = new ArrayList<>();
        int failures = 0;
        if (o.primeSeconds() > 0) {
            for (Workload w : o.workloads()) {
                for (String side : o.sides()) {
                    System.out.println("  (unmeasured) " + run(o.priming(), 0, w, side, bootstrap, body).line());
                }
            }
        }
        for (int round = 1; round <= o.reps(); round++) {
            for (Workload w : o.workloads()) {
                for (String side : o.sides()) {
                    Result r = run(o, round, w, side, bootstrap, body);
                    if (!r.verified()) {
                        failures++;
                    }
                    results.add(r);
                    System.out.println(r.line());
                    System.out.println("KAFKABENCH_RESULT " + r.json());
                }
            }
        }
        System.out.println();
        System.out.printf("medians over %d rounds of %d s (load at start %s, at end %s):%n", o.reps(),
                o.durationSeconds(), loadAtStart, LoadRun.loadAverage());
        System.out.print(new Summary(results).table(o));
        if (failures > 0) {
            System.out.println(failures + " run(s) FAILED or did not verify");
        }
        return failures;
    }

    /** One run on fresh topics (a fresh prefix, a fresh directory). */
    private static Result run(BenchOptions o, int round, Workload w, String side, String bootstrap, byte[] body)
            throws Exception {
        String name = "bench" + RUNS.incrementAndGet();
        long run = ThreadLocalRandom.current().nextLong();
        Path dir = side.equals(BenchOptions.MIKYU_VM) ? Files.createTempDirectory(o.dir(), "kafka-bench") : null;
        try (Clients clients = clients(side, bootstrap, dir, w, name, body, run)) {
            return new LoadRun(o, run).execute(round, w, side, clients);
        } finally {
            if (dir != null) {
                deleteTree(dir);
            }
        }
    }

    private static Clients clients(String side, String bootstrap, Path dir, Workload w, String name, byte[] body,
                                   long run) throws Exception {
        return switch (side) {
            case BenchOptions.PLAIN -> new PlainKafka(bootstrap, w, name, body, run);
            case BenchOptions.MIKYU_KAFKA -> new JmsClients(KafkaTestCluster.uri(), w, name, body, run);
            case BenchOptions.MIKYU_VM -> new JmsClients("vm://" + dir + "?durability=sync", w, name, body, run);
            default -> throw new IllegalArgumentException(side);
        };
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
