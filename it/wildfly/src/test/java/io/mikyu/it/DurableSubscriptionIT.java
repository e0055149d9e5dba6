package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mikyu.it.app.Deliveries;
import io.mikyu.it.app.Deliveries.Delivery;
import io.mikyu.it.app.DeliveriesServlet;
import io.mikyu.it.app.DurableSubscriberMdb;
import io.mikyu.it.app.FailOnDemandListener;
import io.mikyu.it.app.PublishServlet;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.jboss.arquillian.container.test.api.Deployer;
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
 * A message-driven bean on a durable topic subscription is given, once its application is deployed again, what was
 * published while it was undeployed: all of it, once, in order, and nothing it had been given before. The bean's
 * application is deployed and undeployed by the test (Arquillian's {@link Deployer}); a second application
 * publishes.
 */
@ExtendWith(ArquillianExtension.class)
@EnabledIf("io.mikyu.it.Rar#present")
@RunAsClient
class DurableSubscriptionIT extends ServerDeployments {

    private static final String SUBSCRIBER = "subscriber";
    private static final int WHILE_AWAY = 10;

    @Deployment(name = "publisher", order = 2, testable = false)
    static WebArchive publisher() {
        return ShrinkWrap.create(WebArchive.class, "publisher.war").addClasses(Names.class, PublishServlet.class);
    }

    @Deployment(name = SUBSCRIBER, managed = false, testable = false)
    static WebArchive subscriber() {
        return ShrinkWrap.create(WebArchive.class, "durable-subscriber.war").addClasses(Names.class,
                Deliveries.class, Deliveries.Delivery.class, DeliveriesServlet.class, FailOnDemandListener.class,
                DurableSubscriberMdb.class);
    }

    @ArquillianResource
    private Deployer deployer;

    @ArquillianResource
    @OperateOnDeployment("publisher")
    private URL publisherBase;

    @Test
    void whatWasPublishedWhileTheBeansApplicationWasUndeployedIsDeliveredOnceWhenItIsBack() throws Exception {
        AppClient publisher = new AppClient(publisherBase);
        AppClient subscriber = new AppClient(new URL(publisherBase, "/durable-subscriber/"));
        String run = UUID.randomUUID() + "-";

        deployer.deploy(SUBSCRIBER);
        try {
            SubscriptionProbe.awaitSubscribed(publisher, "durable", subscriber);
            // one session delivers the subscription in order: once this one is in, so is everything before it
            String last = "last-before-undeploy-" + run;
            publisher.post("publish", "to", "durable", "body", last);
            subscriber.await(last + " delivered", lines -> lines.stream().anyMatch(l -> l.startsWith(last + "\t")),
                    "deliveries");
        } finally {
            deployer.undeploy(SUBSCRIBER);
        }

        List<String> away = IntStream.rangeClosed(1, WHILE_AWAY).mapToObj(i -> "while-away-" + run + i).toList();
        List<String> publish = new ArrayList<>(List.of("to", "durable"));
        away.forEach(body -> publish.addAll(List.of("body", body)));
        assertThat(publisher.post("publish", publish.toArray(String[]::new))).isEqualTo("published " + WHILE_AWAY);

        deployer.deploy(SUBSCRIBER);
        try {
            String back = "after-redeploy-" + run;
            publisher.post("publish", "to", "durable", "body", back);
            List<Delivery> delivered = Delivery.parse(subscriber.await(back + " delivered",
                    lines -> lines.stream().anyMatch(l -> l.startsWith(back + "\t")), "deliveries"));
            List<String> expected = new ArrayList<>(away);
            expected.add(back);
            // nothing from before the undeploy (the probes, the last one), each message once, in order
            assertThat(delivered).extracting(Delivery::body).containsExactlyElementsOf(expected);
            assertThat(delivered).extracting(Delivery::deliveryCount).containsOnly(1);
        } finally {
            deployer.undeploy(SUBSCRIBER);
        }
    }
}
