package io.mikyu.bench.kafka;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * mikyu's JMS provider on a URL ({@code kafka://} or {@code vm://}), the load the JMS benchmark puts on a provider:
 * every client a connection and an AUTO_ACKNOWLEDGE session of its own, PERSISTENT {@code BytesMessage}s sent one
 * by one, consumers calling {@code receive(100 ms)} and reading the whole body. A log is a Topic with one durable
 * subscriber, a queue a Queue.
 */
final class JmsClients implements Clients {

    private static final long RECEIVE_MS = 100;

    private final MikyuConnectionFactory factory;
    private final Workload workload;
    private final String name;
    private final byte[] body;
    private final long run;
    private final List<Connection> connections = new CopyOnWriteArrayList<>();

    JmsClients(String url, Workload workload, String name, byte[] body, long run) {
        this.factory = new MikyuConnectionFactory(url);
        this.workload = workload;
        this.name = name;
        this.body = body;
        this.run = run;
    }

    private Destination destination(Session s) throws JMSException {
        return workload == Workload.LOG ? s.createTopic(name) : s.createQueue(name);
    }

    @Override
    public Sender sender(int producer) throws JMSException {
        Connection c = factory.createConnection();
        connections.add(c);
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(destination(s));
        p.setDeliveryMode(DeliveryMode.PERSISTENT);
        return new Sender() {
            @Override
            public void send(int id, long seq, long sentNanos) throws JMSException {
                BytesMessage m = s.createBytesMessage();
                m.writeBytes(body);
                m.setLongProperty(Stamp.RUN, run);
                m.setIntProperty(Stamp.PRODUCER, id);
                m.setLongProperty(Stamp.SEQ, seq);
                m.setLongProperty(Stamp.SENT, sentNanos);
                p.send(m);
            }

            @Override
            public void close() throws JMSException {
                c.close();
            }
        };
    }

    @Override
    public Receiver receiver(int consumer) throws JMSException {
        Connection c = factory.createConnection();
        connections.add(c);
        MessageConsumer mc;
        if (workload == Workload.LOG) {
            c.setClientID(name + "-subscriber-" + consumer);
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            mc = s.createDurableConsumer((Topic) destination(s), "bench");
        } else {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            mc = s.createConsumer(destination(s));
        }
        c.start();
        return new Receiver() {
            @Override
            public void receive(Sink sink) throws JMSException {
                Message m = mc.receive(RECEIVE_MS);
                if (m == null) {
                    return;
                }
                BytesMessage b = (BytesMessage) m;
                byte[] read = new byte[(int) b.getBodyLength()];
                b.readBytes(read);
                sink.received(m.getLongProperty(Stamp.RUN), m.getIntProperty(Stamp.PRODUCER),
                        m.getLongProperty(Stamp.SEQ), m.getLongProperty(Stamp.SENT), read.length, m.getJMSRedelivered());
            }

            @Override
            public void close() throws JMSException {
                c.close();
            }
        };
    }

    @Override
    public void close() throws JMSException {
        for (Connection c : connections) {
            c.close();
        }
    }
}
