package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample application (samples/jakarta-ee) as its build made it, -Dmikyu.sample.war: its servlet sends an order
 * through the pooled connection factory in a JTA transaction, its message-driven bean receives it. The server is
 * configured as an administrator would (configure.cli: the pool the sample looks up); the sample names its queue
 * itself, and binds its bean to the adapter with its jboss-ejb3.xml.
 */
@ExtendWith(ArquillianExtension.class)
@EnabledIf("io.mikyu.it.Rar#present")
@RunAsClient
class JakartaEeSampleIT extends ServerDeployments {

    private static final Duration TIMEOUT = Duration.ofSeconds(Long.getLong("it.timeout.seconds", 60));

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Deployment(name = "sample", order = 2, testable = false)
    static WebArchive sample() {
        String war = System.getProperty("mikyu.sample.war");
        if (war == null || !Files.isRegularFile(Path.of(war))) {
            throw new IllegalStateException("-Dmikyu.sample.war names no file (" + war + "): the build sets it to"
                    + " samples/jakarta-ee/target/mikyu-sample.war, which -am builds");
        }
        return ShrinkWrap.create(ZipImporter.class, "mikyu-sample.war").importFrom(Path.of(war).toFile())
                .as(WebArchive.class);
    }

    @Test
    void anOrderSentByTheServletIsReceivedByTheBean(@ArquillianResource @OperateOnDeployment("sample") URL base)
            throws Exception {
        String item = "order-" + UUID.randomUUID();
        HttpResponse<String> sent = http.send(HttpRequest.newBuilder(URI.create(base + "orders?item=" + item))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(sent.statusCode()).as("send: %s", sent.body()).isEqualTo(200);
        assertThat(sent.body()).isEqualTo("sent " + item);

        AtomicReference<List<String>> received = new AtomicReference<>(List.of());
        try {
            await(item + " received").atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> {
                received.set(received(base));
                return received.get().contains(item);
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(item + " not received in " + TIMEOUT + "; received: " + received.get() + "; "
                    + ServerThreads.dump(item + " not received"));
        }
    }

    private List<String> received(URL base) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "orders"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body().isEmpty() ? List.of() : List.of(response.body().split("\n"));
    }
}
