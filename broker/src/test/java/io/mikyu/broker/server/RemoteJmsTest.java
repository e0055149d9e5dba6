package io.mikyu.broker.server;

import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.TaskCounts;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.selector.NoLocalFilter;
import io.mikyu.selector.Selector;
import io.mikyu.transport.Endpoint;
import io.mikyu.transport.Transport;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.naming.Context;
import javax.naming.InitialContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The JMS provider against a broker: {@code tcp://} and {@code unix://} connection factories over a daemon's server
 * in this JVM on a loopback port. Selectors and noLocal rules travel as text and run on the broker.
 */
@Timeout(60)
class RemoteJmsTest {

    @TempDir
    Path dir;

    private static String text(Message m) throws JMSException {
        return m == null ? null : ((TextMessage) m).getText();
    }

    private static List<String> drain(MessageConsumer c, long quietMillis) throws JMSException {
        List<String> out = new ArrayList<>();
        Message m;
        while ((m = c.receive(quietMillis)) != null) {
            out.add(text(m));
        }
        return out;
    }

    private RunningBroker broker() {
        return new RunningBroker(dir.resolve("data"));
    }

    @Test
    void aQueueConsumerOverABrokerIsFedByAConsumerStreamUnlessPrefetchIsZero() throws Exception {
        try (RunningBroker broker = broker()) {
            for (String options : new String[] {"", "?prefetch=0"}) {
                try (Connection c = new MikyuConnectionFactory(broker.uri() + options).createConnection()) {
                    c.start();
                    Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    Queue q = s.createQueue("fed" + options.length());
                    MessageProducer p = s.createProducer(q);
                    for (int i = 0; i < 20; i++) {
                        p.send(s.createTextMessage("m" + i));
                    }
                    MessageConsumer consumer = s.createConsumer(q);
                    for (int i = 0; i < 20; i++) {
                        assertThat(text(consumer.receive(5_000))).isEqualTo("m" + i);
                    }
                    assertThat(broker.server().openStreams()).as("streams open with '%s'", options)
                            .isEqualTo(options.isEmpty() ? 1 : 0);
                    consumer.close();
                }
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(broker.server().openStreams())
                    .as("streams left open").isZero());
            assertThat(broker.store().taskQueue("fed0").counts().inFlight()).isZero();
        }
    }

    @Test
    void automaticAcksReachTheBrokerInBatchesAndSoonEvenWhileTheConsumerWaitsForMore() throws Exception {
        try (RunningBroker broker = broker()) {
            try (Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
                c.start();
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Queue q = s.createQueue("acked");
                MessageProducer p = s.createProducer(q);
                for (int i = 0; i < 5; i++) {
                    p.send(s.createTextMessage("m" + i));
                }
                MessageConsumer consumer = s.createConsumer(q);
                for (int i = 0; i < 5; i++) {
                    assertThat(text(consumer.receive(5_000))).isEqualTo("m" + i);
                }
                long start = System.nanoTime();
                // The consumer now waits for a sixth message; the five it received are acknowledged meanwhile.
                assertThat(consumer.receive(1_500)).isNull();
                long waited = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(waited).isGreaterThanOrEqualTo(1_400);
                var counts = broker.store().taskQueue("acked").counts();
                assertThat(counts.inFlight() + counts.ready()).as("all five acked on the broker").isZero();
            }
        }
    }

    @Test
    void nonPersistentQueueMessagesOverABrokerArriveInOrderWithoutWaitingForEachSend() throws Exception {
        try (RunningBroker broker = broker()) {
            ConnectionFactory cf = new MikyuConnectionFactory(broker.uri());
            try (Connection producer = cf.createConnection(); Connection consumer = cf.createConnection()) {
                Session ps = producer.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Queue ticks = ps.createQueue("ticks");
                MessageProducer p = ps.createProducer(ticks);
                p.setDeliveryMode(jakarta.jms.DeliveryMode.NON_PERSISTENT);
                for (int i = 0; i < 1_000; i++) {
                    p.send(ps.createTextMessage("tick-" + i));
                }
                consumer.start();
                MessageConsumer c = consumer.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(ticks);
                List<String> got = new ArrayList<>();
                for (int i = 0; i < 1_000; i++) {
                    Message m = c.receive(10_000);
                    assertThat(m).as("message " + i).isNotNull();
                    assertThat(m.getJMSDeliveryMode()).isEqualTo(jakarta.jms.DeliveryMode.NON_PERSISTENT);
                    got.add(text(m));
                }
                for (int i = 0; i < 1_000; i++) {
                    assertThat(got.get(i)).isEqualTo("tick-" + i);
                }
                assertThat(c.receive(200)).as("nothing more").isNull();
            }
        }
    }

    @Test
    void aQueueCarriesMessagesBetweenTwoConnectionsOverTcp() throws Exception {
        try (RunningBroker broker = broker()) {
            ConnectionFactory cf = new MikyuConnectionFactory(broker.uri() + "?durability=sync&prefetch=8");
            try (Connection producer = cf.createConnection(); Connection consumer = cf.createConnection()) {
                Session ps = producer.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Queue orders = ps.createQueue("orders");
                MessageProducer p = ps.createProducer(orders);
                for (int i = 0; i < 20; i++) {
                    TextMessage m = ps.createTextMessage("order-" + i);
                    m.setIntProperty("n", i);
                    p.send(m);
                }
                consumer.start();
                Session cs = consumer.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer c = cs.createConsumer(orders);
                List<String> got = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    Message m = c.receive(5_000);
                    assertThat(m).as("message %d", i).isNotNull();
                    assertThat(m.getIntProperty("n")).isEqualTo(i);
                    assertThat(m.getJMSRedelivered()).isFalse();
                    got.add(text(m));
                }
                assertThat(got).startsWith("order-0").endsWith("order-19");
                assertThat(c.receive(200)).isNull();
            }
            TaskCounts counts = broker.store().taskQueue("orders").counts();
            assertThat(counts.ready() + counts.inFlight()).as("all acked on the broker").isZero();
        }
    }

    @Test
    void aClosingConsumerGivesItsPrefetchedMessagesBackUndelivered() throws Exception {
        try (RunningBroker broker = broker();
             Connection c = new MikyuConnectionFactory(broker.uri() + "?prefetch=16").createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("batch");
            MessageProducer p = s.createProducer(q);
            for (int i = 0; i < 10; i++) {
                p.send(s.createTextMessage("m" + i));
            }
            MessageConsumer first = s.createConsumer(q);
            for (int i = 0; i < 4; i++) {
                assertThat(text(first.receive(5_000))).isEqualTo("m" + i);
            }
            first.close();
            assertThat(broker.store().taskQueue("batch").counts().inFlight()).as("nothing left leased").isZero();
            MessageConsumer second = s.createConsumer(q);
            for (int i = 4; i < 10; i++) {
                Message m = second.receive(5_000);
                assertThat(text(m)).isEqualTo("m" + i);
                assertThat(m.getJMSRedelivered()).as("never delivered before").isFalse();
                assertThat(m.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
            }
        }
    }

    @Test
    void aTopicReachesEverySubscriberAndAListener() throws Exception {
        try (RunningBroker broker = broker();
             Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic news = s.createTopic("news");
            MessageConsumer polled = s.createConsumer(news);
            Session listening = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            BlockingQueue<String> heard = new ArrayBlockingQueue<>(10);
            listening.createConsumer(news).setMessageListener(m -> {
                try {
                    heard.add(text(m));
                } catch (JMSException e) {
                    throw new RuntimeException(e);
                }
            });
            c.start();
            MessageProducer p = s.createProducer(news);
            p.send(s.createTextMessage("one"));
            p.send(s.createTextMessage("two"));
            assertThat(text(polled.receive(5_000))).isEqualTo("one");
            assertThat(text(polled.receive(5_000))).isEqualTo("two");
            assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("one");
            assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("two");
        }
    }

    @Test
    void aDurableSubscriptionKeepsWhatIsPublishedWhileItsSubscriberIsAway() throws Exception {
        try (RunningBroker broker = broker()) {
            MikyuConnectionFactory cf = new MikyuConnectionFactory(broker.uri() + "?clientID=billing");
            try (Connection c = cf.createConnection()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                s.createDurableSubscriber(s.createTopic("prices"), "all").close();
            }
            try (Connection other = new MikyuConnectionFactory(broker.uri()).createConnection()) {
                Session s = other.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createTopic("prices"));
                p.send(s.createTextMessage("while away 1"));
                p.send(s.createTextMessage("while away 2"));
            }
            assertThat(broker.store().log("prices").groups()).containsExactly("d.billing.all");
            try (Connection c = cf.createConnection()) {
                c.start();
                Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                MessageConsumer sub = s.createDurableSubscriber(s.createTopic("prices"), "all");
                assertThat(text(sub.receive(5_000))).isEqualTo("while away 1");
                Message second = sub.receive(5_000);
                assertThat(text(second)).isEqualTo("while away 2");
                second.acknowledge();
                sub.close();
                s.unsubscribe("all");
            }
            assertThat(broker.store().log("prices").groups()).isEmpty();
        }
    }

    @Test
    void aTransactedSessionCommitsSendsAndAcksTogetherAndRollsBackToRedelivery() throws Exception {
        try (RunningBroker broker = broker();
             Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
            c.start();
            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            Queue in = tx.createQueue("in");
            Queue out = tx.createQueue("out");
            Session plain = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            plain.createProducer(in).send(plain.createTextMessage("job"));

            MessageConsumer fromIn = tx.createConsumer(in);
            MessageProducer toOut = tx.createProducer(out);
            Message job = fromIn.receive(5_000);
            assertThat(text(job)).isEqualTo("job");
            toOut.send(tx.createTextMessage("result"));
            MessageConsumer outside = plain.createConsumer(out);
            assertThat(outside.receive(300)).as("not visible before commit").isNull();
            tx.rollback();

            Message again = fromIn.receive(5_000);
            assertThat(text(again)).isEqualTo("job");
            assertThat(again.getJMSRedelivered()).isTrue();
            assertThat(again.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
            toOut.send(tx.createTextMessage("result"));
            tx.commit();
            assertThat(text(outside.receive(5_000))).isEqualTo("result");
            TaskCounts inCounts = broker.store().taskQueue("in").counts();
            assertThat(inCounts.ready() + inCounts.inFlight()).isZero();
        }
    }

    @Test
    void selectorsAreEvaluatedOnTheBroker() throws Exception {
        assertThat(FilterCompilers.load().compile(new FilterExpression(Selector.LANGUAGE, "color = 'red'")))
                .isEqualTo(Selector.compile("color='red'"));
        try (RunningBroker broker = broker();
             Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue paint = s.createQueue("paint");
            MessageProducer p = s.createProducer(paint);
            for (String color : List.of("blue", "red", "blue", "red")) {
                TextMessage m = s.createTextMessage(color);
                m.setStringProperty("color", color);
                p.send(m);
            }
            MessageConsumer reds = s.createConsumer(paint, "color = 'red' AND JMSDeliveryMode = 'PERSISTENT'");
            assertThat(text(reds.receive(5_000))).isEqualTo("red");
            Message last = reds.receive(5_000);
            assertThat(text(last)).isEqualTo("red");
            assertThat(reds.receive(200)).isNull();
            TaskCounts counts = broker.store().taskQueue("paint").counts();
            assertThat(counts.inFlight()).as("the broker leased only the red ones").isEqualTo(2);
            assertThat(counts.ready()).isEqualTo(2);
            last.acknowledge();
            reds.close();

            assertThat(s.createBrowser(paint, "color = 'blue'").getEnumeration().hasMoreElements()).isTrue();
            MessageConsumer blues = s.createConsumer(paint);
            assertThat(drain(blues, 300)).containsExactly("blue", "blue");
        }
    }

    @Test
    void aDurableNoLocalSubscriptionSkipsItsOwnConnectionsMessagesOnTheBroker() throws Exception {
        try (RunningBroker broker = broker()) {
            assertThat(FilterCompilers.load().compile(new NoLocalFilter("abc", Selector.compile("x > 1"))
                    .expression())).isEqualTo(new NoLocalFilter("abc", Selector.compile("x>1")));
            try (Connection own = new MikyuConnectionFactory(broker.uri() + "?clientID=me").createConnection();
                 Connection other = new MikyuConnectionFactory(broker.uri()).createConnection()) {
                own.start();
                Session s = own.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Topic t = s.createTopic("chat");
                MessageConsumer sub = s.createDurableSubscriber(t, "mine", "urgent = TRUE", true);
                MessageProducer mine = s.createProducer(t);
                TextMessage m = s.createTextMessage("from me");
                m.setBooleanProperty("urgent", true);
                mine.send(m);
                Session os = other.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer theirs = os.createProducer(t);
                for (String text : List.of("from them", "not urgent")) {
                    TextMessage o = os.createTextMessage(text);
                    o.setBooleanProperty("urgent", text.equals("from them"));
                    theirs.send(o);
                }
                assertThat(drain(sub, 500)).containsExactly("from them");
            }
        }
    }

    @Test
    void jndiNamesABrokerAndTheSimplifiedApiWorksOverIt() throws Exception {
        try (RunningBroker broker = broker()) {
            Hashtable<String, String> env = new Hashtable<>();
            env.put(Context.INITIAL_CONTEXT_FACTORY, "io.mikyu.jms.jndi.MikyuInitialContextFactory");
            env.put("connectionFactory.Remote", broker.uri() + "?clientName=jndi-test");
            env.put("queue.jobs", "jobs");
            InitialContext ctx = new InitialContext(env);
            ConnectionFactory cf = (ConnectionFactory) ctx.lookup("Remote");
            Queue jobs = (Queue) ctx.lookup("jobs");
            try (JMSContext jms = cf.createContext()) {
                jms.createProducer().send(jobs, "2 coffees");
                assertThat(jms.createConsumer(jobs).receiveBody(String.class, 5_000)).isEqualTo("2 coffees");
            }
            ctx.close();
        }
    }

    @Test
    void aUnixSocketUrlReachesTheBroker() throws Exception {
        Assumptions.assumeTrue(Transport.best() == Transport.EPOLL, () -> "no native epoll here: "
                + Transport.epollUnavailableReason());
        Path socket = dir.resolve("mikyu.sock");
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"), RunningBroker.ENGINE, o -> o,
                List.of(Endpoint.parse("unix://" + socket)));
             Connection c = new MikyuConnectionFactory("unix://" + socket).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("local");
            s.createProducer(q).send(s.createTextMessage("over a socket file"));
            assertThat(text(s.createConsumer(q).receive(5_000))).isEqualTo("over a socket file");
            assertThat(broker.store().taskQueue("local").counts().ready()).isZero();
        }
    }

    @Test
    void aConnectionReconnectsAfterABrokerRestartAndLosesNothingThatWasSent() throws Exception {
        Path data = dir.resolve("data");
        RunningBroker broker = broker();
        String uri = broker.uri();
        MikyuConnectionFactory cf = new MikyuConnectionFactory(uri + "?reconnect=20s&clientID=r");
        try (Connection c = cf.createConnection()) {
            BlockingQueue<JMSException> errors = new ArrayBlockingQueue<>(4);
            c.setExceptionListener(errors::add);
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue q = s.createQueue("work");
            Topic t = s.createTopic("events");
            MessageConsumer sub = s.createDurableSubscriber(t, "audit");
            MessageProducer p = s.createProducer(null);
            for (int i = 0; i < 3; i++) {
                p.send(q, s.createTextMessage("m" + i));
            }
            p.send(t, s.createTextMessage("e0"));
            MessageConsumer consumer = s.createConsumer(q);
            Message first = consumer.receive(5_000);
            assertThat(text(first)).isEqualTo("m0");
            assertThat(text(sub.receive(5_000))).isEqualTo("e0");

            broker.close();
            broker = new RunningBroker(data, RunningBroker.ENGINE, o -> o, List.of(Endpoint.parse(uri)));

            p.send(q, s.createTextMessage("after"));
            p.send(t, s.createTextMessage("e1"));
            List<String> rest = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                rest.add(text(consumer.receive(10_000)));
            }
            assertThat(rest).as("every send that returned is there").containsExactly("m1", "m2", "after");
            assertThat(text(sub.receive(10_000))).as("the durable subscription was opened again").isEqualTo("e1");

            s.recover();
            Message again = consumer.receive(10_000);
            assertThat(text(again)).isEqualTo("m0");
            assertThat(again.getJMSRedelivered()).isTrue();
            List<String> redelivered = new ArrayList<>(List.of(text(again)));
            redelivered.addAll(drain(consumer, 300));
            assertThat(redelivered).containsExactly("m0", "m1", "m2", "after");
            assertThat(text(sub.receive(5_000))).isEqualTo("e0");
            assertThat(text(sub.receive(5_000))).isEqualTo("e1");
            again.acknowledge();
            TaskCounts counts = broker.store().taskQueue("work").counts();
            assertThat(counts.ready() + counts.inFlight()).isZero();
            assertThat(errors).as("no ExceptionListener call: the reconnect worked").isEmpty();
        } finally {
            broker.close();
        }
    }

    @Test
    void aBrokerThatDoesNotComeBackIsReportedToTheExceptionListenerOnce() throws Exception {
        RunningBroker broker = broker();
        MikyuConnectionFactory cf = new MikyuConnectionFactory(broker.uri() + "?leaseMillis=300&reconnect=500ms");
        try (Connection a = cf.createConnection(); Connection b = cf.createConnection()) {
            BlockingQueue<JMSException> lost = new ArrayBlockingQueue<>(4);
            a.setExceptionListener(lost::add);
            a.createSession(false, Session.AUTO_ACKNOWLEDGE).createProducer(null);
            broker.close();
            JMSException e = lost.poll(10, TimeUnit.SECONDS);
            assertThat(e).isNotNull();
            assertThat(e.getMessage()).contains("lost the connection to the mikyu broker");
            assertThat(lost.poll(500, TimeUnit.MILLISECONDS)).as("reported once").isNull();
        }
    }
}
