package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/** The XA application's servlet ({@code io.mikyu.it.xa.XaServlet}) as the tests call it, over HTTP/1.1. */
final class XaApp {

    /** How long an outcome may take to show (-Dit.timeout.seconds): long enough for a loaded CI machine. */
    static final Duration TIMEOUT = Duration.ofSeconds(Long.getLong("it.timeout.seconds", 60));

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    XaApp(URL base) {
        this.base = base.toString().endsWith("/") ? base.toString() : base + "/";
    }

    /** POST; the status and the answer's text. */
    HttpResponse<String> post(String path, String... parameters) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path, parameters)).POST(HttpRequest.BodyPublishers.noBody())
                .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** GET that must answer 200; the answer's text. */
    String get(String path, String... parameters) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(path, parameters)).timeout(TIMEOUT)
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return response.body();
    }

    int rows(String body) throws IOException, InterruptedException {
        return Integer.parseInt(get("xa/rows", "body", body));
    }

    List<String> queued(String queue) throws IOException, InterruptedException {
        return lines(get("xa/queued", "queue", queue));
    }

    List<String> attempts(String body) throws IOException, InterruptedException {
        return lines(get("xa/attempts", "body", body));
    }

    /** Asks until the answer satisfies the condition, for at most {@link #TIMEOUT}; the last answer. */
    <T> T await(String what, Call<T> call, Predicate<T> condition) {
        AtomicReference<T> last = new AtomicReference<>();
        try {
            return Awaitility.await(what).atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> {
                last.set(call.call());
                return last.get();
            }, condition);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + " not seen in " + TIMEOUT + "; last: " + last.get() + "; "
                    + ServerThreads.dump(what + " not seen"));
        }
    }

    interface Call<T> {
        T call() throws IOException, InterruptedException;
    }

    private URI uri(String path, String... parameters) {
        StringBuilder uri = new StringBuilder(base).append(path);
        for (int i = 0; i < parameters.length; i += 2) {
            uri.append(i == 0 ? '?' : '&').append(parameters[i]).append('=')
                    .append(URLEncoder.encode(parameters[i + 1], StandardCharsets.UTF_8));
        }
        return URI.create(uri.toString());
    }

    private static List<String> lines(String text) {
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }
}
