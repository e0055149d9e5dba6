package io.mikyu.broker.server;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** JMS over a broker with users: createConnection(user, password) is checked; permissions are the broker's. */
@Timeout(60)
class RemoteJmsSecurityTest {

    @TempDir
    Path dir;

    @Test
    void wrongCredentialsAndMissingPermissionsAreJmsSecurityExceptions() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE,
                o -> o.withRealm(BrokerSecurityTest.realm()))) {
            broker.store().createTaskQueue("orders");
            MikyuConnectionFactory cf = new MikyuConnectionFactory(broker.uri() + "?reconnect=0");

            assertThatThrownBy(() -> cf.createConnection("writer", "wrong"))
                    .isInstanceOf(JMSSecurityException.class)
                    .hasMessageContaining("wrong user name or password for user 'writer'");
            assertThatThrownBy(cf::createConnection).isInstanceOf(JMSSecurityException.class);

            try (Connection writer = cf.createConnection("writer", "w-pass");
                 Connection reader = cf.createConnection("reader", "r-pass")) {
                Session ws = writer.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Queue orders = ws.createQueue("orders");
                ws.createProducer(orders).send(ws.createTextMessage("2 coffees"));
                assertThatThrownBy(() -> ws.createProducer(ws.createQueue("nowhere"))
                        .send(ws.createTextMessage("x"))).isInstanceOf(JMSSecurityException.class);

                Session rs = reader.createSession(false, Session.AUTO_ACKNOWLEDGE);
                assertThatThrownBy(() -> rs.createProducer(orders).send(rs.createTextMessage("forged")))
                        .isInstanceOf(JMSSecurityException.class).hasMessageContaining("produce permission");
                reader.start();
                MessageConsumer consumer = rs.createConsumer(orders);
                assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("2 coffees");
            }
        }
    }
}
