package io.mikyu.broker.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mikyu.engine.spi.QueueMeterSource;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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

    /** Writes the whole scrape to {@code out}, which stays open: each queue's essential families only. */
    public void writeTo(OutputStream out) throws IOException {
        writeTo(out, false);
    }

    /**
     * Writes the whole scrape to {@code out}, which stays open.
     *
     * @param queueDetail also each queue's detail families ({@link QueueMeterSource.Family#detail()}): cache hits,
     *                    bytes appended, segments, append latency, transient memory, compaction
     */
    public void writeTo(OutputStream out, boolean queueDetail) throws IOException {
        registry.scrape(out);
        if (queues == null) {
            return;
        }
        TextVisitor text = new TextVisitor(out);
        try {
            queues.visit(text, queueDetail);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        text.flush();
    }

    /**
     * Writes each family's header before its first sample, so a family no queue has leaves no trace. Bytes go
     * straight into a buffer of its own: through a {@code Writer} each character took a lock and an encoder call,
     * which at 30 MiB a scrape was most of its time.
     */
    private static final class TextVisitor implements QueueMeterSource.Visitor {
        private final OutputStream out;
        private final byte[] buf = new byte[64 * 1024];
        private int pos;
        private QueueMeterSource.Family family;
        private byte[] name;
        private boolean headerWritten;

        TextVisitor(OutputStream out) {
            this.out = out;
        }

        @Override
        public void family(QueueMeterSource.Family f) {
            family = f;
            String base = f.name().replace('.', '_');
            name = (switch (f.type()) {
                case COUNTER -> base + "_total";
                case GAUGE -> base;
                case TIMER -> base + "_seconds";
            }).getBytes(StandardCharsets.UTF_8);
            headerWritten = false;
        }

        @Override
        public void sample(String queue, String kind, String group, double value) {
            try {
                header(family.type() == QueueMeterSource.Type.COUNTER ? "counter" : "gauge");
                row(null, queue, kind, group);
                number(value);
                put('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void timer(String queue, String kind, long count, double totalSeconds) {
            try {
                header("summary");
                row("_count", queue, kind, null);
                ascii(Long.toString(count)); // an integer, as Micrometer writes it
                put('\n');
                row("_sum", queue, kind, null);
                number(totalSeconds);
                put('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void flush() throws IOException {
            out.write(buf, 0, pos);
            pos = 0;
        }

        private void row(String suffix, String queue, String kind, String group) throws IOException {
            bytes(name);
            if (suffix != null) {
                ascii(suffix);
            }
            put('{');
            if (group != null) {
                label("group", group);
                put(',');
            }
            label("kind", kind);
            put(',');
            label("queue", queue);
            put('}');
            put(' ');
        }

        private void header(String type) throws IOException {
            if (headerWritten) {
                return;
            }
            headerWritten = true;
            ascii("# HELP ");
            bytes(name);
            put(' ');
            text(family.description().replace("\\", "\\\\").replace("\n", "\\n"));
            ascii("\n# TYPE ");
            bytes(name);
            put(' ');
            ascii(type);
            put('\n');
        }

        private void label(String key, String value) throws IOException {
            ascii(key);
            put('=');
            put('"');
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '\\' -> ascii("\\\\");
                    case '"' -> ascii("\\\"");
                    case '\n' -> ascii("\\n");
                    default -> {
                        if (c < 0x80) {
                            put(c);
                        } else {
                            utf8(c, value, i);
                            if (Character.isHighSurrogate(c) && i + 1 < value.length()) {
                                i++;
                            }
                        }
                    }
                }
            }
            put('"');
        }

        /**
         * As {@link Double#toString(double)} writes it (and so as Micrometer does: {@code 3.0}), without making a
         * string for the whole numbers that nearly every sample is.
         */
        private void number(double v) throws IOException {
            if (Double.isNaN(v)) {
                ascii("NaN");
            } else if (Double.isInfinite(v)) {
                ascii(v > 0 ? "+Inf" : "-Inf");
            } else if (v == Math.rint(v) && Math.abs(v) < 1e7 && !(v == 0 && 1 / v < 0)) {
                long l = (long) v;
                if (l < 0) {
                    put('-');
                    l = -l;
                }
                digits(l);
                put('.');
                put('0');
            } else {
                ascii(Double.toString(v));
            }
        }

        private void digits(long l) throws IOException {
            if (l >= 10) {
                digits(l / 10);
            }
            put((char) ('0' + l % 10));
        }

        private void text(String s) throws IOException {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    put(c);
                } else {
                    utf8(c, s, i);
                    if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                        i++;
                    }
                }
            }
        }

        private void utf8(char c, String s, int i) throws IOException {
            int end = Character.isHighSurrogate(c) && i + 1 < s.length() ? i + 2 : i + 1;
            bytes(s.substring(i, end).getBytes(StandardCharsets.UTF_8));
        }

        private void ascii(String s) throws IOException {
            for (int i = 0; i < s.length(); i++) {
                put(s.charAt(i));
            }
        }

        private void bytes(byte[] b) throws IOException {
            for (byte x : b) {
                if (pos == buf.length) {
                    flush();
                }
                buf[pos++] = x;
            }
        }

        private void put(char c) throws IOException {
            if (pos == buf.length) {
                flush();
            }
            buf[pos++] = (byte) c;
        }
    }
}
