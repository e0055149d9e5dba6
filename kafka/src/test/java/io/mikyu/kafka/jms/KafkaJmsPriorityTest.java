package io.mikyu.kafka.jms;

import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.kafka.support.KafkaTestCluster;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code JMSPriority} through a JMS consumer on {@code kafka://} (docs/kafka.md, "Priorities"): of the messages ready
 * when a receive fetches, no message of priority 0 to 4 is delivered while one of 5 to 9 is ready, whether the
 * consumer's share consumers joined before the messages were sent, or the high band's topic and share group were
 * made after the consumer started. Fewer than three high-priority messages each, so the low band's turn (one fetch
 * in four) never comes while a high one waits.
 */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaJmsPriorityTest {

    private static final long RECEIVE_MS = KafkaJmsTest.RECEIVE_MS;


    @Test
    void aConsumerStartedAfterTheMessagesWereSentGetsTheHighPriorityOnesFirst() throws Exception {
        MikyuConnectionFactory store = new MikyuConnectionFactory(KafkaTestCluster.uri());
        try (Connection producing = store.createConnection(); Connection consuming = store.createConnection()) {
            Session session = producing.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue("sent-before");
            sendWithPriorities(session, queue, 1, 3, 9, 6);

            consuming.start();
            Session receiving = consuming.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = receiving.createConsumer(queue);
            // Within a band, send order.
            assertThat(receive(consumer, 4)).containsExactly("p9", "p6", "p1", "p3");
        }
    }

    @Test
    void aConsumerStartedBeforeTheHighBandWasMadeGetsTheHighPriorityOnesFirst() throws Exception {
        MikyuConnectionFactory store = new MikyuConnectionFactory(KafkaTestCluster.uri());
        try (Connection producing = store.createConnection(); Connection consuming = store.createConnection()) {
            consuming.start();
            Session receiving = consuming.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue queue = receiving.createQueue("band-made-later");
            MessageConsumer consumer = receiving.createConsumer(queue);
            sendWithPriorities(producing.createSession(false, Session.AUTO_ACKNOWLEDGE), queue, 0);
            // The consumer's share consumer of the queue's own band has joined: it received this one.
            assertThat(receive(consumer, 1)).containsExactly("p0");

            // The first message of priority 5 or more makes the high band, after the consumer started.
            sendWithPriorities(producing.createSession(false, Session.AUTO_ACKNOWLEDGE), queue, 2, 4, 7, 5);
            assertThat(receive(consumer, 4)).containsExactly("p7", "p5", "p2", "p4");
            assertThat(consumer.receive(3_000)).as("nothing more").isNull();
        }
    }

    private static void sendWithPriorities(Session session, Queue queue, int... priorities) throws JMSException {
        MessageProducer producer = session.createProducer(queue);
        for (int p : priorities) {
            producer.send(session.createTextMessage("p" + p), DeliveryMode.PERSISTENT, p, Message.DEFAULT_TIME_TO_LIVE);
        }
    }

    /** Receives {@code n} messages (acknowledging each), their texts in delivery order. */
    private static List<String> receive(MessageConsumer consumer, int n) throws JMSException {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Message m = consumer.receive(RECEIVE_MS);
            assertThat(m).as("message " + (i + 1) + " of " + n + " within " + RECEIVE_MS + " ms").isNotNull();
            texts.add(((TextMessage) m).getText());
            m.acknowledge();
        }
        return texts;
    }
}
