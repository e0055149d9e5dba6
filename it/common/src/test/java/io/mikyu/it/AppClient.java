package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The tests' side of an application's servlets: plain HTTP/1.1 requests to it on loopback, answers as lines, and
 * waiting, up to a deadline, for an answer that says what the test waits for.
 */
final class AppClient {

    /** How long a request, and a wait for a delivery, may take (-Dit.timeout.seconds): a loaded CI machine. */
    static final Duration TIMEOUT = Duration.ofSeconds(Long.getLong("it.timeout.seconds", 60));
    private static final Duration POLL = Duration.ofMillis(100);

    /** Without the JDK client's attempt to upgrade each new connection to HTTP/2. */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final URL base;

    AppClient(URL base) {
        this.base = base;
    }

    /** POST to the path with the parameters (name, value, name, value, ...); the answer's body. */
    String post(String path, String... parameters) throws IOException, InterruptedException {
        return call("POST", path, parameters);
    }

    /** GET of the path with the parameters; the answer's lines. */
    List<String> lines(String path, String... parameters) throws IOException, InterruptedException {
        String body = call("GET", path, parameters);
        return body.isEmpty() ? List.of() : List.of(body.split("\n"));
    }

    /** GETs the path until its lines satisfy {@code until}, and returns them; fails after {@link #TIMEOUT}. */
    List<String> await(String what, Predicate<List<String>> until, String path, String... parameters) {
        AtomicReference<List<String>> last = new AtomicReference<>(List.of());
        try {
            return Awaitility.await(what).atMost(TIMEOUT).pollInterval(POLL).until(() -> {
                last.set(lines(path, parameters));
                return last.get();
            }, until);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + " not seen in " + TIMEOUT + " at " + path + "; last answer: "
                    + last.get() + "; " + ServerThreads.dump(what + " not seen"));
        }
    }

    private String call(String method, String path, String... parameters) throws IOException, InterruptedException {
        URI uri = URI.create(base + path + query(parameters));
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody())
                    .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new AssertionError(method + " " + uri + " has no answer in " + TIMEOUT + "; "
                    + ServerThreads.dump(method + " " + uri + " unanswered"), e);
        }
        assertThat(response.statusCode()).as("%s %s: %s", method, uri, response.body()).isEqualTo(200);
        return response.body();
    }

    private static String query(String... parameters) {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < parameters.length; i += 2) {
            pairs.add(URLEncoder.encode(parameters[i], StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(parameters[i + 1], StandardCharsets.UTF_8));
        }
        return pairs.isEmpty() ? "" : "?" + String.join("&", pairs);
    }
}
