package io.mikyu.jca.outbound;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.resource.spi.ConnectionEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Handles of the pooled factory in a Jakarta EE container: Jakarta Messaging 3.1 §12.2, §12.3, and pooling. */
@Timeout(60)
class HandleRulesTest {

    @TempDir
    Path data;
    private Pools pool;

    @BeforeEach
    void open() throws Exception {
        pool = new Pools(data, false);
    }

    @AfterEach
    void close() throws Exception {
        pool.close();
    }

    @Test
    void oneSessionPerConnectionAndTheContainersMethodsAreRefused() throws Exception {
        try (Connection c = pool.cf.createConnection()) {
            Session s = c.createSession();
            assertThatThrownBy(c::createSession).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("one session");
            assertThatThrownBy(() -> c.createSession(true, Session.SESSION_TRANSACTED))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> c.setClientID("x")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("clientID property");
            assertThatThrownBy(() -> c.setExceptionListener(e -> { })).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(c::stop).isInstanceOf(IllegalStateException.class);
            Queue q = s.createQueue("q");
            Topic t = s.createTopic("t");
            assertThatThrownBy(() -> c.createConnectionConsumer(q, null, null, 1))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> c.createSharedConnectionConsumer(t, "s", null, null, 1))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> c.createDurableConnectionConsumer(t, "s", null, null, 1))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> c.createSharedDurableConnectionConsumer(t, "s", null, null, 1))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> s.setMessageListener(m -> { })).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(s::getMessageListener).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(s::run).isInstanceOf(IllegalStateRuntimeException.class);
            MessageConsumer consumer = s.createConsumer(q);
            assertThatThrownBy(() -> consumer.setMessageListener(m -> { }))
                    .isInstanceOf(IllegalStateException.class);
            var producer = s.createProducer(q);
            assertThatThrownBy(() -> producer.send(s.createTextMessage("x"), new jakarta.jms.CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                }

                @Override
                public void onException(Message message, Exception exception) {
                }
            })).isInstanceOf(IllegalStateException.class);

            s.close();
            Session again = c.createSession(); // the first one is closed: allowed
            assertThat(again.getTransacted()).isFalse();
        }
    }

    @Test
    void contextRulesAreTheRuntimeVariants() {
        try (JMSContext ctx = pool.cf.createContext()) {
            assertThatThrownBy(() -> ctx.createContext(JMSContext.AUTO_ACKNOWLEDGE))
                    .isInstanceOf(JMSRuntimeException.class);
            assertThatThrownBy(() -> ctx.setClientID("x")).isInstanceOf(IllegalStateRuntimeException.class);
            assertThatThrownBy(() -> ctx.setExceptionListener(e -> { }))
                    .isInstanceOf(IllegalStateRuntimeException.class);
            assertThatThrownBy(ctx::stop).isInstanceOf(IllegalStateRuntimeException.class);
            Queue q = ctx.createQueue("ctx");
            var consumer = ctx.createConsumer(q);
            assertThatThrownBy(() -> consumer.setMessageListener(m -> { }))
                    .isInstanceOf(IllegalStateRuntimeException.class);
            ctx.createProducer().send(q, "hello");
            assertThat(consumer.receiveBody(String.class, 5_000)).isEqualTo("hello");
        }
    }

    @Test
    void closingAHandleGivesThePhysicalConnectionBackOpen() throws Exception {
        Connection first = pool.cf.createConnection();
        first.createSession().createProducer(null);
        MikyuManagedConnection mc = pool.only();
        first.close();
        first.close(); // a second close does nothing
        assertThat(pool.cm.eventTypes()).containsExactly(ConnectionEvent.CONNECTION_CLOSED);
        assertThat(pool.cm.events.get(0).getConnectionHandle()).isSameAs(first);
        assertThat(pool.cm.freeCount()).isEqualTo(1);
        assertThatThrownBy(first::createSession).isInstanceOf(IllegalStateException.class);

        try (Connection second = pool.cf.createConnection()) {
            assertThat(pool.cm.created()).as("the pooled connection is reused").isEqualTo(1);
            assertThat(pool.only()).isSameAs(mc);
            Session s = second.createSession();
            s.createProducer(s.createQueue("reuse")).send(s.createTextMessage("still open"));
        }
        assertThat(pool.texts("reuse", 2_000)).containsExactly("still open");
    }

    @Test
    void cleanupClosesConsumersAndGivesPrefetchedMessagesBack() throws Exception {
        String[] texts = new String[20];
        for (int i = 0; i < texts.length; i++) {
            texts[i] = "m" + i;
        }
        pool.send("work", texts);
        Connection c = pool.cf.createConnection();
        c.start();
        Session s = c.createSession();
        MessageConsumer consumer = s.createConsumer(s.createQueue("work"));
        for (int i = 0; i < 7; i++) { // batches of 1, 2, 4: more is prefetched than was received
            assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("m" + i);
        }
        c.close(); // no consumer.close(): the pool's cleanup does it
        assertThatThrownBy(consumer::receiveNoWait).isInstanceOf(IllegalStateException.class);

        var rest = pool.drain("work", 500);
        assertThat(rest).hasSize(13);
        for (Message m : rest) {
            assertThat(m.getJMSRedelivered()).as("given back, never delivered").isFalse();
        }
    }

    @Test
    void outsideATransactionASessionIsAutoAcknowledgedOrLocallyTransactedAsAsked() throws Exception {
        try (Connection c = pool.cf.createConnection()) {
            Session client = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            assertThat(client.getAcknowledgeMode()).as("§12.3: CLIENT_ACKNOWLEDGE is AUTO_ACKNOWLEDGE")
                    .isEqualTo(Session.AUTO_ACKNOWLEDGE);
            assertThatThrownBy(client::commit).isInstanceOf(IllegalStateException.class);
            client.recover(); // nothing unacknowledged: nothing to do
            client.close();

            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            assertThat(tx.getTransacted()).isTrue();
            var p = tx.createProducer(tx.createQueue("local"));
            p.send(tx.createTextMessage("rolled back"));
            tx.rollback();
            p.send(tx.createTextMessage("committed"));
            assertThat(pool.texts("local", 200)).as("not before the commit").isEmpty();
            tx.commit();
            assertThat(pool.texts("local", 2_000)).containsExactly("committed");
            tx.commit(); // nothing since: nothing to do
        }
        assertThat(pool.cm.eventTypes()).containsExactly(ConnectionEvent.LOCAL_TRANSACTION_STARTED,
                ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK, ConnectionEvent.LOCAL_TRANSACTION_STARTED,
                ConnectionEvent.LOCAL_TRANSACTION_COMMITTED, ConnectionEvent.CONNECTION_CLOSED);
    }

    @Test
    void aLocallyTransactedReceiveRolledBackComesAgain() throws Exception {
        pool.send("again", "once");
        try (Connection c = pool.cf.createConnection()) {
            c.start();
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            MessageConsumer consumer = tx.createConsumer(tx.createQueue("again"));
            assertThat(consumer.receive(5_000).getJMSRedelivered()).isFalse();
            tx.rollback();
            Message m = consumer.receive(5_000);
            assertThat(m.getJMSRedelivered()).isTrue();
            tx.commit();
        }
        assertThat(pool.drain("again", 300)).isEmpty();
    }

    @Test
    void aContextOutsideATransactionIsAutoAcknowledgedWhateverItAsks() {
        try (JMSContext ctx = pool.cf.createContext(JMSContext.SESSION_TRANSACTED)) {
            assertThat(ctx.getSessionMode()).isEqualTo(JMSContext.AUTO_ACKNOWLEDGE);
            assertThat(ctx.getTransacted()).isFalse();
            ctx.createProducer().send(ctx.createQueue("ctx-auto"), "at once");
            assertThatThrownBy(ctx::commit).isInstanceOf(IllegalStateRuntimeException.class);
        }
        try (JMSContext ctx = pool.cf.createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            assertThat(ctx.getSessionMode()).isEqualTo(JMSContext.AUTO_ACKNOWLEDGE);
            assertThat(ctx.createConsumer(ctx.createQueue("ctx-auto")).receiveBody(String.class, 5_000))
                    .isEqualTo("at once");
        }
        assertThat(pool.cm.created()).isEqualTo(1);
    }

    @Test
    void theContainersLocalTransactionOwnsTheSessionsWork() throws Exception {
        Connection c = pool.cf.createConnection();
        MikyuManagedConnection mc = pool.only();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        var p = s.createProducer(s.createQueue("container-local"));

        mc.getLocalTransaction().begin();
        assertThat(s.getTransacted()).isTrue();
        p.send(s.createTextMessage("rolled back"));
        assertThatThrownBy(s::commit).isInstanceOf(jakarta.jms.TransactionInProgressException.class);
        mc.getLocalTransaction().rollback();

        mc.getLocalTransaction().begin();
        p.send(s.createTextMessage("committed"));
        mc.getLocalTransaction().commit();
        assertThat(s.getTransacted()).isFalse();
        c.close();
        assertThat(pool.texts("container-local", 2_000)).containsExactly("committed");
        assertThat(pool.cm.eventTypes()).as("the container's own transactions send no events")
                .containsExactly(ConnectionEvent.CONNECTION_CLOSED);
    }

    @Test
    void temporaryQueuesGoWithTheirHandle() throws Exception {
        jakarta.jms.TemporaryQueue tmp;
        try (Connection c = pool.cf.createConnection()) {
            Session s = c.createSession();
            tmp = s.createTemporaryQueue();
            s.createProducer(tmp).send(s.createTextMessage("x"));
        }
        try (Connection c = pool.cf.createConnection()) {
            Session s = c.createSession();
            assertThatThrownBy(() -> s.createProducer(tmp).send(s.createTextMessage("y")))
                    .isInstanceOf(jakarta.jms.InvalidDestinationException.class);
        }
    }

    @Test
    void aFactoryOutsideAServerMakesAPhysicalConnectionPerHandle() throws Exception {
        jakarta.jms.ConnectionFactory unpooled = (jakarta.jms.ConnectionFactory) pool.mcf.createConnectionFactory();
        try (Connection c = unpooled.createConnection()) {
            Session s = c.createSession();
            s.createProducer(s.createQueue("unpooled")).send(s.createTextMessage("direct"));
        }
        assertThat(pool.texts("unpooled", 2_000)).containsExactly("direct");
    }
}
