package io.mikyu.jms.classic;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** After maxAttempts deliveries a message goes to the dead-letter queue, which JMS reads by name. */
@Timeout(30)
class RedeliveryLimitTest implements TestStore {

    @TempDir
    Path data;

    @Override
    public Path data() {
        return data;
    }

    @Test
    void aQueueMessageRolledBackMaxAttemptsTimesIsDeadLettered() throws Exception {
        try (Connection c = new MikyuConnectionFactory(url("&maxAttempts=3")).createConnection()) {
            c.start();
            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            tx.createProducer(tx.createQueue("orders")).send(tx.createTextMessage("poison"));
            tx.commit();
            MessageConsumer consumer = tx.createConsumer(tx.createQueue("orders"));
            for (int attempt = 1; attempt <= 3; attempt++) {
                Message m = consumer.receive(waitMillis());
                assertThat(m.getIntProperty("JMSXDeliveryCount")).isEqualTo(attempt);
                assertThat(m.getJMSRedelivered()).isEqualTo(attempt > 1);
                tx.rollback();
            }
            assertThat(consumer.receive(300)).isNull();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TextMessage dead = (TextMessage) s.createConsumer(s.createQueue("orders/dlq")).receive(waitMillis());
            assertThat(dead.getText()).isEqualTo("poison");
            assertThat(dead.getStringProperty("mikyu.dlq.queue")).as("engine bookkeeping stays internal").isNull();
        }
    }

    @Test
    void aDurableSubscriptionMessageRecoveredMaxAttemptsTimesIsDeadLettered() throws Exception {
        String url = url("&maxAttempts=2&clientID=app");
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Topic t = s.createTopic("events");
            MessageConsumer sub = s.createDurableSubscriber(t, "audit");
            s.createProducer(t).send(s.createTextMessage("bad"));
            assertThat(sub.receive(waitMillis())).isNotNull();
            s.recover();
            assertThat(sub.receive(waitMillis()).getJMSRedelivered()).isTrue();
            s.recover();
            assertThat(sub.receive(300)).isNull();
            MessageConsumer dlq = s.createConsumer(s.createQueue("events:d.app.audit/dlq"));
            assertThat(((TextMessage) dlq.receive(waitMillis())).getText()).isEqualTo("bad");
        }
    }
}
