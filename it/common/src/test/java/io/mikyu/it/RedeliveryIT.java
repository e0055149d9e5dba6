package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mikyu.it.app.BeanManagedRedeliveryMdb;
import io.mikyu.it.app.Deliveries;
import io.mikyu.it.app.Deliveries.Delivery;
import io.mikyu.it.app.DeliveriesServlet;
import io.mikyu.it.app.FailOnDemandListener;
import io.mikyu.it.app.RedeliveryServlet;
import io.mikyu.it.app.TransactedRedeliveryMdb;
import java.net.URL;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A message-driven bean that fails gets the message again, flagged redelivered and counted, until
 * {@value #MAX_ATTEMPTS} deliveries ({@code maxAttempts} of the beans' activations and of the pool the servlet
 * sends through) have failed; then the message is in the queue's dead-letter queue and the bean is not given it
 * again. For a container-managed transacted bean (a RuntimeException, or {@code setRollbackOnly}: the delivery's
 * branch rolls back) and a bean-managed one (a RuntimeException: the adapter's session recovers). On
 * {@code vm://}, {@code redeliveryDelay} 0.
 */
@ExtendWith(ArquillianExtension.class)
@EnabledIf("io.mikyu.it.Rar#present")
@RunAsClient
class RedeliveryIT extends ServerDeployments {

    private static final int MAX_ATTEMPTS = 3;

    @Deployment(name = "app", order = 2, testable = false)
    static WebArchive app() {
        return ShrinkWrap.create(WebArchive.class, "redelivery.war").addClasses(Names.class, RedeliveryServlet.class,
                DeliveriesServlet.class, Deliveries.class, Deliveries.Delivery.class, FailOnDemandListener.class,
                TransactedRedeliveryMdb.class, BeanManagedRedeliveryMdb.class);
    }

    @ArquillianResource
    @OperateOnDeployment("app")
    private URL base;

    @Test
    void transactedBeanThatThrowsIsRedeliveredUntilTheDeadLetterQueue() throws Exception {
        failsUntilDeadLettered("transacted", FailOnDemandListener.THROW);
    }

    @Test
    void transactedBeanThatSetsRollbackOnlyIsRedeliveredUntilTheDeadLetterQueue() throws Exception {
        failsUntilDeadLettered("transacted", FailOnDemandListener.ROLLBACK_ONLY);
    }

    @Test
    void beanManagedBeanThatThrowsIsRedeliveredUntilTheDeadLetterQueue() throws Exception {
        failsUntilDeadLettered("bean-managed", FailOnDemandListener.THROW);
    }

    private void failsUntilDeadLettered(String queue, String fail) throws Exception {
        AppClient app = new AppClient(base);
        String failing = queue + "-" + fail + "-" + UUID.randomUUID();
        assertThat(app.post("send", "queue", queue, "body", failing, "fail", fail)).isEqualTo("sent");

        List<String> dead = app.await(failing + " in the dead-letter queue",
                lines -> lines.stream().anyMatch(l -> l.startsWith(failing + "\t")), "dead-letters", "queue", queue);
        // the whole message is there, its properties too, and once
        assertThat(dead).filteredOn(l -> l.startsWith(failing + "\t")).containsExactly(failing + "\t" + fail);

        // The bean was given it MAX_ATTEMPTS times, each time flagged and counted (the last delivery is recorded
        // before its failure moves the message, so all of them are in by now).
        List<Delivery> attempts = of(failing, Delivery.parse(app.lines("deliveries")));
        assertThat(attempts).extracting(Delivery::deliveryCount).containsExactly(1, 2, 3);
        assertThat(attempts).extracting(Delivery::redelivered).containsExactly(false, true, true);

        // The bean still takes messages from the queue; the dead-lettered one it is not given again.
        String after = queue + "-after-" + UUID.randomUUID();
        assertThat(app.post("send", "queue", queue, "body", after)).isEqualTo("sent");
        List<Delivery> all = Delivery.parse(app.await(after + " delivered",
                lines -> lines.stream().anyMatch(l -> l.startsWith(after + "\t")), "deliveries"));
        assertThat(of(after, all)).extracting(Delivery::deliveryCount).containsExactly(1);
        assertThat(of(failing, all)).hasSize(MAX_ATTEMPTS);
        assertThat(app.lines("dead-letters", "queue", queue)).filteredOn(l -> l.startsWith(failing + "\t"))
                .hasSize(1);
    }

    private static List<Delivery> of(String body, List<Delivery> deliveries) {
        return deliveries.stream().filter(d -> d.body().equals(body)).toList();
    }
}
