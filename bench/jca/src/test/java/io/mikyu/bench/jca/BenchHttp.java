package io.mikyu.bench.jca;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The requests to the server's applications, over plain HTTP/1.1 on loopback (keep-alive connections). */
final class BenchHttp {

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;

    BenchHttp(int port) {
        this.base = "http://127.0.0.1:" + port + "/";
    }

    /** POST to the sending application; anything but 200 is a failure, with the server's answer in it. */
    String post(String pathAndQuery, Duration timeout) throws IOException, InterruptedException {
        return answer(HttpRequest.newBuilder(URI.create(base + "bench/" + pathAndQuery))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(timeout).build());
    }

    /** GET from a side's consuming application. */
    String consumed(Side side) throws IOException, InterruptedException {
        return answer(HttpRequest.newBuilder(URI.create(base + side.consumerDeployment() + "/consumed"))
                .timeout(Duration.ofSeconds(30)).build());
    }

    private String answer(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(request.method() + " " + request.uri() + ": " + response.statusCode() + "\n"
                    + response.body());
        }
        return response.body();
    }
}
