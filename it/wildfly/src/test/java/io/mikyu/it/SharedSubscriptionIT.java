package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mikyu.it.app.Deliveries;
import io.mikyu.it.app.Deliveries.Delivery;
import io.mikyu.it.app.DeliveriesServlet;
import io.mikyu.it.app.FailOnDemandListener;
import io.mikyu.it.app.PublishServlet;
import io.mikyu.it.app.SharedSubscriberMdb;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
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
 * A message-driven bean on a shared subscription with {@code maxSession} 4: each message published is delivered
 * exactly once, and the activation's sessions (each delivering on a thread of its own) share the work.
 */
@ExtendWith(ArquillianExtension.class)
@EnabledIf("io.mikyu.it.Rar#present")
@RunAsClient
class SharedSubscriptionIT extends ServerDeployments {

    private static final int MESSAGES = 40;

    @Deployment(name = "app", order = 2, testable = false)
    static WebArchive app() {
        return ShrinkWrap.create(WebArchive.class, "shared-subscription.war").addClasses(Names.class,
                PublishServlet.class, Deliveries.class, Deliveries.Delivery.class, DeliveriesServlet.class,
                FailOnDemandListener.class, SharedSubscriberMdb.class);
    }

    @ArquillianResource
    @OperateOnDeployment("app")
    private URL base;

    @Test
    void eachMessageIsDeliveredOnceBySeveralSessions() throws Exception {
        AppClient app = new AppClient(base);
        SubscriptionProbe.awaitSubscribed(app, "shared", app);

        String run = UUID.randomUUID() + "-";
        List<String> bodies = IntStream.rangeClosed(1, MESSAGES).mapToObj(i -> "shared-" + run + i).toList();
        List<String> publish = new ArrayList<>(List.of("to", "shared"));
        bodies.forEach(body -> publish.addAll(List.of("body", body)));
        assertThat(app.post("publish", publish.toArray(String[]::new))).isEqualTo("published " + MESSAGES);
        app.await(MESSAGES + " messages delivered",
                lines -> lines.stream().filter(l -> l.startsWith("shared-" + run)).count() >= MESSAGES, "deliveries");
        // and one more after them, so that a duplicate still on its way has had the time the last one took
        String last = "last-" + run;
        app.post("publish", "to", "shared", "body", last);
        List<Delivery> all = Delivery.parse(app.await(last + " delivered",
                lines -> lines.stream().anyMatch(l -> l.startsWith(last + "\t")), "deliveries"));

        List<Delivery> ours = all.stream().filter(d -> d.body().startsWith("shared-" + run)).toList();
        assertThat(ours).extracting(Delivery::body).containsExactlyInAnyOrderElementsOf(bodies);
        assertThat(ours).extracting(Delivery::deliveryCount).containsOnly(1);
        Map<String, Long> bySession = ours.stream()
                .collect(Collectors.groupingBy(Delivery::thread, Collectors.counting()));
        System.out.println("messages per delivering session (thread): " + bySession); // in the test's report
        assertThat(bySession).as("messages per delivering session (thread)").hasSizeGreaterThan(1);
    }
}
