package io.mikyu.jca.inbound;

import io.mikyu.jca.MikyuResourceAdapter;
import io.mikyu.jca.testkit.TestBootstrapContext;
import io.mikyu.jca.testkit.TestEndpointFactory;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;

/** A started resource adapter on an embedded store, with a plain connection to feed and check it. */
final class Inbound {

    /** The longest a test waits for something to happen. */
    static final Duration AT_MOST = Duration.ofSeconds(30);

    final String url;
    final MikyuResourceAdapter ra = new MikyuResourceAdapter();
    final TestBootstrapContext bootstrap = new TestBootstrapContext();
    private final Connection plain;

    Inbound(Path data) throws Exception {
        this(data, "");
    }

    Inbound(Path data, String options) throws Exception {
        url = "vm://" + data + "?durability=async" + options;
        ra.setUrl(url);
        ra.start(bootstrap);
        plain = new MikyuConnectionFactory(url).createConnection();
        plain.start();
    }

    static MikyuActivationSpec queue(String name) {
        MikyuActivationSpec spec = new MikyuActivationSpec();
        spec.setDestination(name);
        spec.setDestinationType("jakarta.jms.Queue");
        return spec;
    }

    static MikyuActivationSpec topic(String name) {
        MikyuActivationSpec spec = new MikyuActivationSpec();
        spec.setDestination(name);
        spec.setDestinationType("jakarta.jms.Topic");
        return spec;
    }

    void activate(TestEndpointFactory endpoint, MikyuActivationSpec spec) throws Exception {
        spec.setResourceAdapter(ra);
        ra.endpointActivation(endpoint, spec);
    }

    void send(String queue, String... texts) throws Exception {
        send(queue, Message.DEFAULT_PRIORITY, texts);
    }

    void send(String queue, int priority, String... texts) throws Exception {
        try (Session s = plain.createSession()) {
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setPriority(priority);
            for (String t : texts) {
                p.send(s.createTextMessage(t));
            }
        }
    }

    /** The texts of what waits in {@code queue}, neither taken nor leased to a consumer. */
    List<String> browse(String queue) throws Exception {
        List<String> out = new ArrayList<>();
        try (Session s = plain.createSession()) {
            var messages = s.createBrowser(s.createQueue(queue)).getEnumeration();
            while (messages.hasMoreElements()) {
                out.add(((TextMessage) messages.nextElement()).getText());
            }
        }
        return out;
    }

    void publish(String topic, String... texts) throws Exception {
        try (Session s = plain.createSession()) {
            MessageProducer p = s.createProducer(s.createTopic(topic));
            for (String t : texts) {
                p.send(s.createTextMessage(t));
            }
        }
    }

    /** What a plain consumer gets from {@code queue}: waiting up to {@code millis} for the first, 150 ms then. */
    List<Message> drain(String queue, long millis) throws Exception {
        List<Message> out = new ArrayList<>();
        try (Session s = plain.createSession()) {
            MessageConsumer c = s.createConsumer(s.createQueue(queue));
            for (Message m = c.receive(millis); m != null; m = c.receive(150)) {
                out.add(m);
            }
        }
        return out;
    }

    static List<String> texts(List<Message> messages) throws Exception {
        List<String> out = new ArrayList<>();
        for (Message m : messages) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }

    /**
     * Waits until {@code sessions} delivering sessions run, over every activation: each has its consumer (its
     * queue or subscription created) once it runs, so what is sent from then on is theirs.
     */
    void awaitSessions(int sessions) {
        await(sessions + " delivering sessions").atMost(AT_MOST)
                .until(() -> bootstrap.workManager().running(InboundSession.class) == sessions);
    }

    void close() throws Exception {
        ra.stop();
        plain.close();
        bootstrap.workManager().shutdown();
    }
}
