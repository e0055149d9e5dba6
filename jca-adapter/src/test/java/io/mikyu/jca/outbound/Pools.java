package io.mikyu.jca.outbound;

import io.mikyu.jca.testkit.Jta;
import io.mikyu.jca.testkit.TestConnectionManager;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A pool of a connection definition on an embedded store, as a server would set it up, for the outbound tests. */
final class Pools {

    final String url;
    final MikyuManagedConnectionFactory mcf = new MikyuManagedConnectionFactory();
    final TestConnectionManager cm;
    final ConnectionFactory cf;
    private final Connection plain;

    Pools(Path data, boolean jta) throws Exception {
        this.url = "vm://" + data + "?durability=async";
        mcf.setUrl(url);
        cm = new TestConnectionManager(jta ? Jta.tm() : null);
        cf = (ConnectionFactory) mcf.createConnectionFactory(cm);
        plain = new MikyuConnectionFactory(url).createConnection();
        plain.start();
    }

    /** Sends through a plain (unpooled, non-transacted) connection. */
    void send(String queue, String... texts) throws Exception {
        try (Session s = plain.createSession()) {
            var p = s.createProducer(s.createQueue(queue));
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

    List<String> texts(String queue, long millis) throws Exception {
        List<String> out = new ArrayList<>();
        for (Message m : drain(queue, millis)) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }

    MikyuManagedConnection only() {
        return (MikyuManagedConnection) cm.connections().iterator().next();
    }

    void close() throws Exception {
        cm.close();
        plain.close();
    }
}
