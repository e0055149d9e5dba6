package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mikyu.it.app.Receipts;
import io.mikyu.it.app.RecordingListener;
import io.mikyu.it.app.SendServlet;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * The end-to-end scenario: a servlet sends through one of the server's pooled connection factories inside a JTA
 * transaction, a message-driven bean on the queue receives through the adapter; a rolled-back send delivers
 * nothing. Each concrete test deploys the application for its target (the servlet's {@code target} parameter:
 * {@code vm}, an engine inside the server, or {@code tcp}, a {@code mikyu daemon} the test starts); each server's
 * module adds the adapter's own deployment where the server takes it as one ({@link ServerDeployments}).
 */
abstract class SendScenario extends ServerDeployments {

    /** How long a send, and a receipt, may take (-Dit.timeout.seconds): long enough for a loaded CI machine. */
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(Long.getLong("it.timeout.seconds", 60));
    private static final Duration RECEIPT_TIMEOUT = SEND_TIMEOUT;

    /** Plain HTTP/1.1, without the JDK client's attempt to upgrade each new connection to HTTP/2. */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** The servlet's target: which connection factory and queue it sends through. */
    abstract String target();

    /** The application: the servlet, the bean that records what it receives, and that bean's receiver. */
    static WebArchive app(String name, Class<?> receiver) {
        return ShrinkWrap.create(WebArchive.class, name)
                .addClasses(Names.class, SendServlet.class, RecordingListener.class, Receipts.class, receiver);
    }

    @Test
    void committedSendIsReceivedByTheMessageDrivenBean(@ArquillianResource @OperateOnDeployment("app") URL base)
            throws Exception {
        String body = "committed-" + UUID.randomUUID();
        assertThat(send(base, body, "commit")).isEqualTo("committed");
        assertThat(awaitReceived(base, body)).contains(body);
    }

    @Test
    void rolledBackSendIsNeverReceived(@ArquillianResource @OperateOnDeployment("app") URL base) throws Exception {
        String rolledBack = "rolled-back-" + UUID.randomUUID();
        String after = "after-" + UUID.randomUUID();
        assertThat(send(base, rolledBack, "rollback")).isEqualTo("rolled back");
        // A committed message sent after it is received: had the rolled-back one been sent, it would be first.
        assertThat(send(base, after, "commit")).isEqualTo("committed");
        awaitReceived(base, after);
        // and, should the bean take two at once, a little longer for a message it took beside that one: watched
        // for half a second more (what was received stays received)
        await().during(Duration.ofMillis(500)).atMost(RECEIPT_TIMEOUT).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(received(base)).doesNotContain(rolledBack));
    }

    private String send(URL base, String body, String outcome) throws IOException, InterruptedException {
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(URI.create(base + "send?target=" + target() + "&body=" + body + "&outcome=" + outcome))
                    .POST(HttpRequest.BodyPublishers.noBody()).timeout(SEND_TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new AssertionError("send of " + body + " (" + outcome + ") has no answer in " + SEND_TIMEOUT + "; "
                    + ServerThreads.dump("send of " + body + " (" + outcome + ") unanswered"), e);
        }
        assertThat(response.statusCode()).as("send: %s", response.body()).isEqualTo(200);
        return response.body();
    }

    private List<String> received(URL base) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "received"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body().isEmpty() ? List.of() : List.of(response.body().split("\n"));
    }

    private List<String> awaitReceived(URL base, String body) {
        AtomicReference<List<String>> received = new AtomicReference<>(List.of());
        try {
            return await(body + " received").atMost(RECEIPT_TIMEOUT).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        received.set(received(base));
                        return received.get();
                    }, r -> r.contains(body));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(body + " not received in " + RECEIPT_TIMEOUT + "; received: " + received.get()
                    + "; " + ServerThreads.dump(body + " not received"));
        }
    }
}
