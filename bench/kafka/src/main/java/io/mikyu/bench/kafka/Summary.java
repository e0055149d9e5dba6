package io.mikyu.bench.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The medians per workload and side, and the ratios: mikyu on Kafka over plain Kafka (of the medians and of each
 * round's pair), and mikyu on Kafka over the embedded engine. Only verified runs count.
 */
final class Summary {

    private final List<Result> results;

    Summary(List<Result> results) {
        this.results = results;
    }

    String table(BenchOptions o) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "| workload | side | receive msgs/s | send msgs/s | p50 us | p99 us | runs |%n"));
        b.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (Workload w : o.workloads()) {
            for (String side : o.sides()) {
                List<Result> rs = of(w, side);
                b.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.0f | %.0f | %.0f | %d |%n", w.label, side,
                        median(rs, Result::receivedPerS), median(rs, Result::sentPerS), median(rs, Result::p50us),
                        median(rs, Result::p99us), rs.size()));
            }
        }
        b.append("\nratios (of the medians; per round in brackets):\n");
        for (Workload w : o.workloads()) {
            ratio(b, w, BenchOptions.MIKYU_KAFKA, BenchOptions.PLAIN, o);
            ratio(b, w, BenchOptions.MIKYU_KAFKA, BenchOptions.MIKYU_VM, o);
        }
        return b.toString();
    }

    private void ratio(StringBuilder b, Workload w, String a, String over, BenchOptions o) {
        if (!o.sides().contains(a) || !o.sides().contains(over)) {
            return;
        }
        List<Result> x = of(w, a);
        List<Result> y = of(w, over);
        b.append(String.format(Locale.ROOT, "- %s %s / %s: receive %s %s, send %s, p50 %s, p99 %s%n", w.label, a, over,
                div(median(x, Result::receivedPerS), median(y, Result::receivedPerS)),
                perRound(w, a, over, o), div(median(x, Result::sentPerS), median(y, Result::sentPerS)),
                div(median(x, Result::p50us), median(y, Result::p50us)),
                div(median(x, Result::p99us), median(y, Result::p99us))));
    }

    private String perRound(Workload w, String a, String over, BenchOptions o) {
        List<String> r = new ArrayList<>();
        for (int round = 1; round <= o.reps(); round++) {
            int n = round;
            List<Result> x = of(w, a).stream().filter(e -> e.round() == n).toList();
            List<Result> y = of(w, over).stream().filter(e -> e.round() == n).toList();
            if (!x.isEmpty() && !y.isEmpty()) {
                r.add(div(x.get(0).receivedPerS(), y.get(0).receivedPerS()));
            }
        }
        return "[" + String.join(" ", r) + "]";
    }

    private List<Result> of(Workload w, String side) {
        return results.stream().filter(r -> r.workload() == w && r.side().equals(side) && r.verified()).toList();
    }

    static double median(List<Result> rs, ToDoubleFunction<Result> f) {
        double[] v = rs.stream().mapToDouble(f).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static String div(double x, double y) {
        return Double.isNaN(x) || Double.isNaN(y) || y == 0 ? "-" : String.format(Locale.ROOT, "%.2f", x / y);
    }
}
