package io.mikyu.bench.jca;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The servlet's measure: {@code clients} threads, each calling {@code POST /send} (one message, one JTA
 * transaction) and waiting for the answer before the next, for the warm-up and then the measured window. A request
 * counts in the window when its answer arrives in it. Any failed request fails the run.
 */
final class SendLoad {

    record Result(long measured, double perSecond, long total, double p50Millis, double p99Millis) {
    }

    private final BenchHttp http;
    private final int clients;
    private final Duration warmup;
    private final Duration window;
    private final int size;

    SendLoad(BenchHttp http, int clients, Duration warmup, Duration window, int size) {
        this.http = http;
        this.clients = clients;
        this.warmup = warmup;
        this.window = window;
        this.size = size;
    }

    Result run(Side side) throws Exception {
        long start = System.nanoTime();
        long windowStart = start + warmup.toNanos();
        long windowEnd = windowStart + window.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<long[]>> workers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                workers.add(pool.submit(() -> client(side, windowStart, windowEnd)));
            }
            long total = 0;
            List<long[]> latencies = new ArrayList<>();
            for (Future<long[]> worker : workers) {
                long[] result = worker.get();
                total += result[0];
                latencies.add(Arrays.copyOfRange(result, 1, result.length));
            }
            long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
            return new Result(all.length, all.length / (window.toNanos() / 1e9), total,
                    percentile(all, 0.50) / 1e6, percentile(all, 0.99) / 1e6);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One client: {total requests, then the latency in ns of each request answered inside the window}. */
    private long[] client(Side side, long windowStart, long windowEnd) throws Exception {
        String request = "send?side=" + side.id + "&size=" + size;
        long[] measured = new long[1024];
        int count = 0;
        long total = 0;
        long now;
        do {
            long before = System.nanoTime();
            http.post(request, Duration.ofSeconds(60));
            now = System.nanoTime();
            total++;
            if (now >= windowStart && now < windowEnd) {
                if (count == measured.length) {
                    measured = Arrays.copyOf(measured, count * 2);
                }
                measured[count++] = now - before;
            }
        } while (now < windowEnd);
        long[] result = new long[count + 1];
        result[0] = total;
        System.arraycopy(measured, 0, result, 1, count);
        return result;
    }

    private static double percentile(long[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    }
}
