package io.mikyu.jca.admin;

import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.MikyuQueue;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.naming.Reference;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The administered Queue and Topic are the provider's destinations of their name, and bind as JNDI objects. */
@Timeout(30)
class AdminObjectsTest {

    @TempDir
    Path data;

    @Test
    void theProviderTakesThemForItsDestinations() throws Exception {
        AdminQueue orders = new AdminQueue();
        orders.setName("orders");
        AdminQueue replies = new AdminQueue("replies");
        AdminTopic prices = new AdminTopic("prices");
        try (Connection c = new MikyuConnectionFactory("vm://" + data + "?durability=async").createConnection()) {
            c.start();
            Session s = c.createSession();
            var priceSubscriber = s.createConsumer(prices);
            TextMessage m = s.createTextMessage("2 coffees");
            m.setJMSReplyTo(replies);
            s.createProducer(orders).send(m);
            s.createProducer(prices).send(s.createTextMessage("1.20"));

            Message got = s.createConsumer(new MikyuQueue("orders")).receive(5_000);
            assertThat(((TextMessage) got).getText()).isEqualTo("2 coffees");
            assertThat(((Queue) got.getJMSReplyTo()).getQueueName()).isEqualTo("replies");
            assertThat(((Queue) got.getJMSDestination()).getQueueName()).isEqualTo("orders");
            assertThat(((TextMessage) priceSubscriber.receive(5_000)).getText()).isEqualTo("1.20");
            assertThat(s.createBrowser(orders).getEnumeration().hasMoreElements()).isFalse();
        }
    }

    @Test
    void theyAreSerializableAndReferenceable() throws Exception {
        AdminQueue q = new AdminQueue("orders");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(q);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(q);
        }
        Reference ref = new AdminTopic("prices").getReference();
        assertThat(new AdminObjectFactory().getObjectInstance(ref, null, null, null))
                .isEqualTo(new AdminTopic("prices"));
        assertThat(new AdminObjectFactory().getObjectInstance(q.getReference(), null, null, null)).isEqualTo(q);
        Reference set = new Reference(AdminQueue.class.getName());
        q.setReference(set);
        assertThat(q.getReference()).isSameAs(set);
        assertThat(q).hasToString("queue://orders");
    }

    @Test
    void aNamelessOneSaysWhatIsMissing() {
        assertThatThrownBy(new AdminQueue()::getQueueName).hasMessageContaining("set its 'name' property");
    }
}
