package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mikyu.it.annotated.AnnotatedQueueMdb;
import io.mikyu.it.annotated.AnnotatedQueueServlet;
import io.mikyu.it.annotated.AnnotatedResources;
import io.mikyu.it.app.Receipts;
import io.mikyu.it.app.RecordingListener;
import java.net.URL;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An application that declares its connection factory with {@code @JMSConnectionFactoryDefinition} and its queue
 * with {@code @JMSDestinationDefinition}, both on mikyu's adapter, sends through them in JTA transactions and
 * receives: a committed send arrives, a rolled-back one never does.
 *
 * <p>WildFly 39 starts a copy of the adapter for each such definition with the application's class loader, so
 * the application's manifest says {@code Dependencies: deployment.mikyu-jca.rar}; without it the adapter's
 * classes are not visible and the deployment fails (docs/jakarta-ee.md).
 */
@ExtendWith(ArquillianExtension.class)
@EnabledIf("io.mikyu.it.Rar#present")
@RunAsClient
class AnnotationDefinitionsIT extends ServerDeployments {

    static final String ADAPTER_DEPENDENCY = "Manifest-Version: 1.0\nDependencies: deployment.mikyu-jca.rar\n";

    @Deployment(name = "app", order = 2, testable = false)
    static WebArchive app() {
        return ShrinkWrap.create(WebArchive.class, "annotation-definitions.war")
                .addClasses(AnnotatedResources.class, AnnotatedQueueServlet.class, AnnotatedQueueMdb.class,
                        RecordingListener.class, Receipts.class)
                .setManifest(new StringAsset(ADAPTER_DEPENDENCY));
    }

    @ArquillianResource
    @OperateOnDeployment("app")
    private URL base;

    @Test
    void aCommittedSendArrivesAndARolledBackOneDoesNot() throws Exception {
        AppClient app = new AppClient(base);
        String run = UUID.randomUUID().toString();
        String rolledBack = "rolled-back-" + run;
        String committed = "committed-" + run;

        assertThat(app.post("annotated", "body", rolledBack, "outcome", "rollback"))
                .isEqualTo("rolled back " + rolledBack);
        assertThat(app.post("annotated", "body", committed, "outcome", "commit")).isEqualTo("committed " + committed);

        // the queue is the application's own: the first message on it is the committed one, none before it
        long waitMillis = AppClient.TIMEOUT.toMillis() / 2;
        assertThat(app.lines("annotated", "waitMillis", Long.toString(waitMillis))).containsExactly(committed);
        assertThat(app.lines("annotated", "waitMillis", "1000")).containsExactly("none");
    }

    @Test
    void aBeanOnADeclaredQueueReceivesWhatWasCommitted() throws Exception {
        AppClient app = new AppClient(base);
        String run = UUID.randomUUID().toString();
        String rolledBack = "bean-rolled-back-" + run;
        String committed = "bean-committed-" + run;

        app.post("annotated", "to", "bean", "body", rolledBack, "outcome", "rollback");
        app.post("annotated", "to", "bean", "body", committed, "outcome", "commit");

        // the bean's queue is the application's own and delivers in order: had the rolled-back send been
        // stored, it would have come first
        List<String> received = app.await(committed + " received", lines -> lines.contains(committed),
                "annotated", "received", "");
        assertThat(received).containsExactly(committed);
    }

    @Test
    void theDefinitionsClientIdIsTheConnectionsClientId() throws Exception {
        assertThat(new AppClient(base).lines("annotated", "clientId", "")).containsExactly(AnnotatedResources.CLIENT_ID);
    }
}
