package io.mikyu.bench.kafka;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line: {@code --reps --duration --warmup --prime --producers --consumers --size --workloads --sides
 * --dir}. {@code prime}: seconds of a first, unmeasured run of each workload on each side, so that the cluster's
 * internal topics (consumer offsets, share-group state, transactions) are made before the first measured run.
 */
record BenchOptions(int reps, int durationSeconds, int warmupSeconds, int primeSeconds, int producers, int consumers,
                    int size, List<Workload> workloads, List<String> sides, Path dir) {

    static final String PLAIN = "kafka";
    static final String MIKYU_KAFKA = "mikyu-kafka";
    static final String MIKYU_VM = "mikyu-vm";
    static final List<String> SIDES = List.of(PLAIN, MIKYU_KAFKA, MIKYU_VM);

    static BenchOptions parse(String[] args) {
        int reps = 3;
        int duration = 20;
        int warmup = 10;
        int prime = 5;
        int producers = 4;
        int consumers = 4;
        int size = 1024;
        List<Workload> workloads = List.of(Workload.LOG, Workload.QUEUE);
        List<String> sides = SIDES;
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String v = args[++i];
            switch (flag) {
                case "--reps" -> reps = positive(flag, v);
                case "--duration" -> duration = positive(flag, v);
                case "--warmup" -> warmup = Integer.parseInt(v);
                case "--prime" -> prime = Integer.parseInt(v);
                case "--producers" -> producers = positive(flag, v);
                case "--consumers" -> consumers = positive(flag, v);
                case "--size" -> size = positive(flag, v);
                case "--dir" -> dir = Path.of(v);
                case "--workloads" -> {
                    List<Workload> w = new ArrayList<>();
                    for (String s : v.trim().split("[ ,]+")) {
                        w.add(Workload.of(s));
                    }
                    workloads = List.copyOf(w);
                }
                case "--sides" -> {
                    List<String> s = List.of(v.trim().split("[ ,]+"));
                    for (String side : s) {
                        if (!SIDES.contains(side)) {
                            throw new IllegalArgumentException("no side '" + side + "': one of " + SIDES);
                        }
                    }
                    sides = s;
                }
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        return new BenchOptions(reps, duration, warmup, prime, producers, consumers, size, workloads, sides, dir);
    }

    /** The options of the unmeasured first runs: {@code prime} seconds, no warm-up. */
    BenchOptions priming() {
        return new BenchOptions(1, primeSeconds, 0, 0, producers, consumers, size, workloads, sides, dir);
    }

    private static int positive(String flag, String v) {
        int n = Integer.parseInt(v);
        if (n < 1) {
            throw new IllegalArgumentException(flag + " must be at least 1: " + v);
        }
        return n;
    }
}
