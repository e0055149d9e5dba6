package io.mikyu.broker.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mikyu.engine.spi.QueueMeterSource;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * What {@code /metrics} serves, in the Prometheus text format (0.0.4): every meter of the registry, then every
 * queue's meters read from the store ({@link QueueMeterSource}) and written straight to the stream under the
 * names Micrometer's Prometheus registry gives them ({@code mikyu.queue.in} → {@code mikyu_queue_in_total},
 * labels in name order). Nothing per queue is registered or held: at 10,000 + 10,000 destinations the registered
 * meters were about 500,000 objects and a scrape built a snapshot of each before writing a byte.
 */
public final class PrometheusScrape {

    private final PrometheusMeterRegistry registry;
    private final QueueMeterSource queues;

    /** @param queues the store's per-queue meters, or {@code null} when they are in the registry (or elsewhere) */
    public PrometheusScrape(PrometheusMeterRegistry registry, QueueMeterSource queues) {
        this.registry = registry;
        this.queues = queues;
    }

    /** Writes the whole scrape to {@code out}, which stays open. */
    public void writeTo(OutputStream out) throws IOException {
        registry.scrape(out);
        if (queues == null) {
            return;
        }
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 64 * 1024);
        try {
            queues.visit(new TextVisitor(w));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        w.flush();
    }

    /** Writes each family's header before its first sample, so a family no queue has leaves no trace. */
    private static final class TextVisitor implements QueueMeterSource.Visitor {
        private final Writer w;
        private QueueMeterSource.Family family;
        private String name;
        private boolean headerWritten;

        TextVisitor(Writer w) {
            this.w = w;
        }

        @Override
        public void family(QueueMeterSource.Family f) {
            family = f;
            String base = f.name().replace('.', '_');
            name = switch (f.type()) {
                case COUNTER -> base + "_total";
                case GAUGE -> base;
                case TIMER -> base + "_seconds";
            };
            headerWritten = false;
        }

        @Override
        public void sample(String queue, String kind, String group, double value) {
            try {
                header(family.type() == QueueMeterSource.Type.COUNTER ? "counter" : "gauge");
                row("", queue, kind, group, number(value));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void timer(String queue, String kind, long count, double totalSeconds) {
            try {
                header("summary");
                row("_count", queue, kind, null, Long.toString(count)); // an integer, as Micrometer writes it
                row("_sum", queue, kind, null, number(totalSeconds));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void row(String suffix, String queue, String kind, String group, String value) throws IOException {
            w.write(name);
            w.write(suffix);
            labels(queue, kind, group);
            w.write(' ');
            w.write(value);
            w.write('\n');
        }

        private void header(String type) throws IOException {
            if (headerWritten) {
                return;
            }
            headerWritten = true;
            w.write("# HELP ");
            w.write(name);
            w.write(' ');
            w.write(family.description().replace("\\", "\\\\").replace("\n", "\\n"));
            w.write("\n# TYPE ");
            w.write(name);
            w.write(' ');
            w.write(type);
            w.write('\n');
        }

        private void labels(String queue, String kind, String group) throws IOException {
            w.write('{');
            if (group != null) {
                label("group", group);
                w.write(',');
            }
            label("kind", kind);
            w.write(',');
            label("queue", queue);
            w.write('}');
        }

        private void label(String key, String value) throws IOException {
            w.write(key);
            w.write("=\"");
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '\\' -> w.write("\\\\");
                    case '"' -> w.write("\\\"");
                    case '\n' -> w.write("\\n");
                    default -> w.write(c);
                }
            }
            w.write('"');
        }

        private static String number(double v) {
            if (Double.isNaN(v)) {
                return "NaN";
            }
            if (Double.isInfinite(v)) {
                return v > 0 ? "+Inf" : "-Inf";
            }
            return Double.toString(v);
        }
    }
}
