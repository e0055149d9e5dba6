package io.mikyu.broker.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The daemon's HTTP endpoint (JDK {@code com.sun.net.httpserver}, one thread; nothing on the broker's event loops):
 *
 * <ul>
 * <li>{@code GET /metrics}: every meter of the registry in the Prometheus text format (version 0.0.4): JVM
 * (memory, GC, threads, class loading, CPU, open files, uptime), Netty (event loops, pooled allocator), the broker
 * ({@code mikyu_broker_*}), the engine ({@code mikyu_engine_*}) and each queue ({@code mikyu_queue_*}: the
 * essential families; {@code /metrics?detail=queues} adds each queue's detail families);</li>
 * <li>{@code GET /health/live}: 200 while the process serves HTTP at all;</li>
 * <li>{@code GET /health/ready}: 200 when the store is open and every listener bound, else 503.</li>
 * </ul>
 *
 * Plain HTTP without authentication: bind it to loopback (the default) or a management network.
 */
public final class MetricsEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer http;
    private final ExecutorService executor;
    private final PrometheusScrape scrape;
    private volatile BooleanSupplier ready = () -> false;

    private MetricsEndpoint(HttpServer http, ExecutorService executor, PrometheusScrape scrape) {
        this.http = http;
        this.executor = executor;
        this.scrape = scrape;
    }

    /** A Prometheus registry with the JVM's meters bound; give it to the engine and broker, then {@link #start}. */
    public static PrometheusMeterRegistry newRegistry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        return registry;
    }

    /** Listens on {@code host:port} (port 0: a free one, see {@link #port()}), serving the registry's meters. */
    public static MetricsEndpoint start(String host, int port, PrometheusMeterRegistry registry) {
        return start(host, port, new PrometheusScrape(registry, null));
    }

    /** Listens on {@code host:port} (port 0: a free one, see {@link #port()}), serving {@code scrape}. */
    public static MetricsEndpoint start(String host, int port, PrometheusScrape scrape) {
        HttpServer http;
        try {
            http = HttpServer.create(new InetSocketAddress(host, port), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen for metrics on " + host + ":" + port + ": " + e, e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "mikyu-metrics-http");
            t.setDaemon(true);
            return t;
        });
        MetricsEndpoint endpoint = new MetricsEndpoint(http, executor, scrape);
        http.createContext("/metrics", endpoint::metrics);
        http.createContext("/health/live", ex -> endpoint.respond(ex, 200, "text/plain", "UP\n"));
        http.createContext("/health/ready", ex -> {
            boolean ok = endpoint.ready.getAsBoolean();
            endpoint.respond(ex, ok ? 200 : 503, "text/plain", ok ? "UP\n" : "DOWN\n");
        });
        http.createContext("/", ex -> endpoint.respond(ex, 404, "text/plain",
                "not found; try /metrics, /health/live, /health/ready\n"));
        http.setExecutor(executor);
        http.start();
        LOG.info("metrics on http://{}:{}/metrics", host, endpoint.port());
        return endpoint;
    }

    /** What {@code /health/ready} asks. */
    public void readiness(BooleanSupplier check) {
        this.ready = check;
    }

    public int port() {
        return http.getAddress().getPort();
    }

    public String host() {
        return http.getAddress().getHostString();
    }

    private void metrics(HttpExchange ex) throws IOException {
        if (!"GET".equals(ex.getRequestMethod()) && !"HEAD".equals(ex.getRequestMethod())) {
            respond(ex, 405, "text/plain", "GET only\n");
            return;
        }
        // Streamed as it is written (chunked): with tens of thousands of queues the text is tens of megabytes,
        // which as one String (and its bytes) would take a daemon with a small heap to its limit.
        try (ex) {
            ex.getResponseHeaders().set("Content-Type", PROMETHEUS_TEXT);
            if ("HEAD".equals(ex.getRequestMethod())) {
                ex.sendResponseHeaders(200, -1);
                return;
            }
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = new BufferedOutputStream(ex.getResponseBody(), 64 * 1024)) {
                scrape.writeTo(out, wantsQueueDetail(ex.getRequestURI().getRawQuery()));
            }
        }
    }

    /** {@code detail=queues} among the query's parameters. */
    static boolean wantsQueueDetail(String query) {
        if (query == null) {
            return false;
        }
        for (String param : query.split("&")) {
            if (param.equals("detail=queues")) {
                return true;
            }
        }
        return false;
    }

    private void respond(HttpExchange ex, int status, String contentType, String body) throws IOException {
        try (ex) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", contentType);
            boolean head = "HEAD".equals(ex.getRequestMethod());
            ex.sendResponseHeaders(status, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
    }
}
