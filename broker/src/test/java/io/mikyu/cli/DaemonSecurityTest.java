package io.mikyu.cli;

import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.security.PasswordHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code mikyu daemon --config FILE --metrics-port 0} as a real process: its users and permissions, and its
 * Prometheus and health endpoints.
 */
class DaemonSecurityTest {

    @TempDir
    Path dir;

    @Test
    void daemonChecksPasswordsAndServesMetricsAndHealth() throws Exception {
        Path config = Files.writeString(dir.resolve("mikyu.conf"), String.join("\n",
                "listen = tcp://127.0.0.1:0",
                "flushInterval = 100ms",
                "users.app.password = " + PasswordHash.hash("app-pass".toCharArray(), 1_000),
                "users.app.roles = app",
                "roles.app.produce = events",
                "roles.app.consume = events",
                "roles.app.manage = events",
                ""));
        try (DaemonProcess daemon = DaemonProcess.startWith(dir, dir.resolve("data"),
                List.of("--config", config.toString(), "--metrics-port", "0"))) {
            String line = daemon.listeningLine(Duration.ofSeconds(30));
            String uri = daemon.awaitListening(Duration.ofSeconds(1)).get(0);
            Matcher m = Pattern.compile("metrics (http://\\S+)/metrics").matcher(line);
            assertThat(m.find()).as(line).isTrue();
            String http = m.group(1);

            assertThatThrownBy(() -> Mikyu.dial(uri, Map.of("user", "app", "password", "nope")))
                    .isInstanceOf(AuthenticationException.class);
            try (Mikyu client = Mikyu.dial(uri, Map.of("user", "app", "password", "app-pass"))) {
                client.getOrCreateLog("events", LogQueueConfig.defaults()).append(Entry.of("counted"));

                HttpClient web = HttpClient.newHttpClient();
                HttpResponse<String> metrics = web.send(HttpRequest.newBuilder(URI.create(http + "/metrics"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(metrics.statusCode()).isEqualTo(200);
                assertThat(metrics.headers().firstValue("Content-Type")).hasValueSatisfying(
                        t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
                assertThat(metrics.body())
                        .contains("# TYPE jvm_memory_used_bytes gauge")
                        .contains("jvm_gc_")
                        .contains("jvm_threads_live_threads")
                        .contains("mikyu_engine_commits")
                        .containsPattern("mikyu_queue_in_total\\{[^}]*queue=\"events\"[^}]*} 1\\.0")
                        .contains("mikyu_broker_connections 1.0")
                        .contains("mikyu_broker_authentication_failures_total 1.0")
                        .contains("netty_");

                assertThat(web.send(HttpRequest.newBuilder(URI.create(http + "/health/live")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
                HttpResponse<String> ready = web.send(HttpRequest.newBuilder(URI.create(http + "/health/ready"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(ready.statusCode()).isEqualTo(200);
                assertThat(ready.body()).isEqualTo("UP\n");
            }
            daemon.sigterm();
            assertThat(daemon.waitForExit(Duration.ofSeconds(30))).as(daemon.stderrText()).isZero();
        }
    }
}
