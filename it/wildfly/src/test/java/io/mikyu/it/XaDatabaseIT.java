package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mikyu.it.xa.Attempts;
import io.mikyu.it.xa.InboxMdb;
import io.mikyu.it.xa.OrderRows;
import io.mikyu.it.xa.OrderService;
import io.mikyu.it.xa.Outcome;
import io.mikyu.it.xa.Schema;
import io.mikyu.it.xa.XaServlet;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * XA with a second resource, {@code vm://}: the server's transaction manager commits or rolls back a row of an H2
 * XA datasource and a mikyu message together. Outbound, an enterprise bean inserts and sends in one transaction;
 * inbound, a message-driven bean consumes and inserts in the container's transaction. The database side is read
 * with a query, the message side with a browser through the pooled connection factory.
 */
@ExtendWith(ArquillianExtension.class)
@EnabledIf("io.mikyu.it.Rar#present")
@RunAsClient
class XaDatabaseIT extends ServerDeployments {

    @Deployment(name = "app", order = 2, testable = false)
    static WebArchive app() {
        return ShrinkWrap.create(WebArchive.class, "xa-db.war").addClasses(Names.class, XaServlet.class,
                OrderService.class, Outcome.class, OrderRows.class, Schema.class, InboxMdb.class, Attempts.class);
    }

    @ArquillianResource
    @OperateOnDeployment("app")
    private URL base;

    private XaApp app;

    @BeforeEach
    void connect() {
        app = new XaApp(base);
    }

    // ---- outbound: a row and a message in the caller's transaction

    @Test
    void commitMakesTheRowAndTheMessageVisible() throws Exception {
        String body = "commit-" + UUID.randomUUID();
        assertThat(place(body, Outcome.COMMIT).body()).isEqualTo("COMMIT");
        assertThat(app.rows(body)).isEqualTo(1);
        app.await(body + " in the orders queue", () -> app.queued("orders"), q -> q.contains(body));
    }

    @Test
    void rollbackOnlyLeavesNeither() throws Exception {
        String body = "rollback-only-" + UUID.randomUUID();
        assertThat(place(body, Outcome.ROLLBACK_ONLY).body()).isEqualTo("ROLLBACK_ONLY");
        assertNeither(body);
    }

    @Test
    void failureAfterBothLeavesNeither() throws Exception {
        String body = "fail-after-both-" + UUID.randomUUID();
        HttpResponse<String> response = place(body, Outcome.FAIL_AFTER_BOTH);
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).contains("fails after its row and message");
        assertNeither(body);
    }

    // ---- inbound: a consumed message and a row in the container's transaction

    @Test
    void deliveryThatCommitsInsertsTheRowAndConsumesTheMessage() throws Exception {
        String body = "ok:" + UUID.randomUUID();
        assertDeliveredOnceAfter(body, List.of("false/1"));
    }

    @Test
    void rollbackOnlyDeliveryLeavesNoRowAndTheMessageComesAgain() throws Exception {
        String body = "rollback-only:" + UUID.randomUUID();
        assertDeliveredOnceAfter(body, List.of("false/1", "true/2"));
    }

    @Test
    void failedInsertLeavesNoRowAndTheMessageComesAgain() throws Exception {
        String body = "insert-fails:" + UUID.randomUUID();
        assertDeliveredOnceAfter(body, List.of("false/1", "true/2"));
    }

    private HttpResponse<String> place(String body, Outcome outcome) throws Exception {
        HttpResponse<String> response = app.post("xa/place", "body", body, "outcome", outcome.name());
        if (outcome != Outcome.FAIL_AFTER_BOTH) {
            assertThat(response.statusCode()).as("place: %s", response.body()).isEqualTo(200);
        }
        return response;
    }

    /**
     * Neither the row nor the message of a rolled-back order: a committed order placed after it shows in the queue,
     * and the queue keeps order, so had the rolled-back message been sent it would be there before it.
     */
    private void assertNeither(String body) throws Exception {
        assertThat(app.rows(body)).isZero();
        String after = "after-" + UUID.randomUUID();
        assertThat(place(after, Outcome.COMMIT).body()).isEqualTo("COMMIT");
        List<String> queued = app.await(after + " in the orders queue", () -> app.queued("orders"),
                q -> q.contains(after));
        assertThat(queued).doesNotContain(body);
        assertThat(app.rows(body)).isZero();
    }

    /**
     * The bean's deliveries of the message are the expected ones and exactly one row is left: every delivery
     * inserts a row, so one row after a rolled-back delivery means its insert was rolled back with it. Once the
     * message is gone from the queue (consumed and committed) there is no further delivery to wait for.
     */
    private void assertDeliveredOnceAfter(String body, List<String> expectedAttempts) throws Exception {
        assertThat(app.post("xa/inbox", "body", body).body()).isEqualTo("sent");
        app.await("the row of " + body, () -> app.rows(body), rows -> rows > 0);
        app.await(body + " consumed", () -> app.queued("inbox"), q -> !q.contains(body));
        app.await(expectedAttempts.size() + " deliveries of " + body, () -> app.attempts(body),
                a -> a.size() >= expectedAttempts.size());
        assertThat(app.attempts(body)).containsExactlyElementsOf(expectedAttempts);
        assertThat(app.rows(body)).isEqualTo(1);
    }
}
