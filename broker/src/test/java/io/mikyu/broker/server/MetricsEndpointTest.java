package io.mikyu.broker.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsEndpointTest {

    @Test
    void shouldAnswerReadyOnlyWhileTheCheckSaysSoAndLiveAlways() throws Exception {
        PrometheusMeterRegistry registry = MetricsEndpoint.newRegistry();
        AtomicBoolean ready = new AtomicBoolean(false);
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry)) {
            endpoint.readiness(ready::get);
            String base = "http://127.0.0.1:" + endpoint.port();
            assertThat(get(base + "/health/live").statusCode()).isEqualTo(200);
            HttpResponse<String> notReady = get(base + "/health/ready");
            assertThat(notReady.statusCode()).isEqualTo(503);
            assertThat(notReady.body()).isEqualTo("DOWN\n");
            ready.set(true);
            assertThat(get(base + "/health/ready").statusCode()).isEqualTo(200);
            assertThat(get(base + "/metrics").body()).contains("jvm_memory_used_bytes")
                    .contains("process_uptime_seconds");
            assertThat(get(base + "/nothing").statusCode()).isEqualTo(404);
        } finally {
            registry.close();
        }
    }

    @Test
    void metricsAreStreamedAsTheyAreWrittenNotHeldAsOneText() throws Exception {
        // Tens of thousands of queues make tens of megabytes of text: held whole (and again as bytes) it would take
        // a daemon with a small heap to its limit. Streamed, it goes out chunked, with no length known up front.
        PrometheusMeterRegistry registry = MetricsEndpoint.newRegistry();
        for (int i = 0; i < 5_000; i++) {
            registry.counter("mikyu.test.meter", "queue", "queue-" + i).increment(i);
        }
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry)) {
            HttpResponse<String> metrics = get("http://127.0.0.1:" + endpoint.port() + "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("content-length")).isEmpty();
            assertThat(metrics.headers().firstValue("transfer-encoding")).hasValue("chunked");
            assertThat(metrics.headers().firstValue("content-type")).hasValueSatisfying(
                    t -> assertThat(t).startsWith("text/plain"));
            assertThat(metrics.body()).contains("mikyu_test_meter_total{queue=\"queue-4999\"} 4999.0");

            HttpResponse<String> head = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(head.statusCode()).isEqualTo(200);
            assertThat(head.body()).isEmpty();
        } finally {
            registry.close();
        }
    }

    private static HttpResponse<String> get(String uri) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(uri)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
