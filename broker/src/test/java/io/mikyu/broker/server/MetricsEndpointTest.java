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

    private static HttpResponse<String> get(String uri) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(uri)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
