package io.mikyu.jms.classic;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.security.PasswordHash;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** vm:// URLs, the shared embedded engine, users, and client IDs. */
@Timeout(30)
class ConnectionFactoryTest {

    @TempDir
    Path data;

    @Test
    void badUrlsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> new MikyuConnectionFactory("vm://"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no data directory");
        assertThatThrownBy(() -> new MikyuConnectionFactory("vm://data?durabilty=sync"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown option 'durabilty'");
        assertThatThrownBy(() -> new MikyuConnectionFactory("vm://data?prefetch=-1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefetch");
        assertThatThrownBy(() -> new MikyuConnectionFactory("amqp://host"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a mikyu URL");
    }

    @Test
    void connectionsToOneDirectoryShareOneEngineThatClosesWithTheLast() throws Exception {
        MikyuConnectionFactory factory = new MikyuConnectionFactory("vm://" + data);
        Connection first = factory.createConnection();
        Connection second = factory.createConnection();
        Session s1 = first.createSession(false, Session.AUTO_ACKNOWLEDGE);
        s1.createProducer(s1.createQueue("shared")).send(s1.createTextMessage("from first"));
        first.close();
        second.start();
        Session s2 = second.createSession(false, Session.AUTO_ACKNOWLEDGE);
        assertThat(((TextMessage) s2.createConsumer(s2.createQueue("shared")).receive(5_000)).getText())
                .isEqualTo("from first");
        assertThatThrownBy(() -> Mikyu.open(data)).as("the engine is still open").isInstanceOf(RuntimeException.class);
        second.close();
        try (Mikyu engine = Mikyu.open(data)) {
            assertThat(engine.location()).isNotNull(); // released with the last connection
        }
    }

    @Test
    void withAUsersFileOnlyKnownUsersConnect() throws Exception {
        Path users = Files.writeString(data.resolve("users.properties"),
                "users.app.password = " + PasswordHash.hash("secret".toCharArray(), 1_000) + "\n");
        String url = "vm://" + data.resolve("store") + "?users=" + users;
        MikyuConnectionFactory factory = new MikyuConnectionFactory(url);
        factory.createConnection("app", "secret").close();
        assertThatThrownBy(() -> factory.createConnection("app", "wrong")).isInstanceOf(JMSSecurityException.class);
        assertThatThrownBy(() -> factory.createConnection("invalid", "invalid"))
                .isInstanceOf(JMSSecurityException.class);
        assertThatThrownBy(factory::createConnection).as("anonymous not allowed")
                .isInstanceOf(JMSSecurityException.class);
        assertThatThrownBy(() -> factory.createContext("invalid", "invalid"))
                .isInstanceOf(JMSSecurityRuntimeException.class);
        new MikyuConnectionFactory(url + "&allowAnonymous=true").createConnection().close();
    }

    @Test
    void withUsersEachDestinationNeedsItsPermission() throws Exception {
        Path users = Files.writeString(data.resolve("mikyu.conf"), String.join("\n",
                "users.app.password = " + PasswordHash.hash("secret".toCharArray(), 1_000),
                "users.app.roles = app",
                "roles.app.produce = orders",
                "roles.app.consume = replies.*",
                ""));
        MikyuConnectionFactory factory = new MikyuConnectionFactory("vm://" + data.resolve("store") + "?config="
                + users);
        try (Connection c = factory.createConnection("app", "secret")) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue orders = s.createQueue("orders");
            MessageProducer p = s.createProducer(orders);
            p.send(s.createTextMessage("allowed"));
            assertThatThrownBy(() -> s.createConsumer(orders)).isInstanceOf(JMSSecurityException.class)
                    .hasMessage("user 'app' lacks the consume permission on queue 'orders'");
            assertThatThrownBy(() -> s.createProducer(s.createQueue("other")))
                    .isInstanceOf(JMSSecurityException.class).hasMessageContaining("produce permission");
            MessageProducer anywhere = s.createProducer(null);
            assertThatThrownBy(() -> anywhere.send(s.createTopic("prices"), s.createTextMessage("no")))
                    .isInstanceOf(JMSSecurityException.class).hasMessageContaining("topic 'prices'");
            s.createConsumer(s.createQueue("replies.1")).close();
            // its own temporary queue needs no permission
            s.createConsumer(s.createTemporaryQueue()).close();
        }
    }

    @Test
    void aClientIdIsSetOnceBeforeUseAndOnlyByOneConnection() throws Exception {
        MikyuConnectionFactory factory = new MikyuConnectionFactory("vm://" + data);
        try (Connection a = factory.createConnection(); Connection b = factory.createConnection()) {
            a.setClientID("app");
            assertThat(a.getClientID()).isEqualTo("app");
            assertThatThrownBy(() -> a.setClientID("again")).isInstanceOf(jakarta.jms.IllegalStateException.class);
            assertThatThrownBy(() -> b.setClientID("app")).isInstanceOf(InvalidClientIDException.class);
            b.createSession(false, Session.AUTO_ACKNOWLEDGE);
            assertThatThrownBy(() -> b.setClientID("late")).as("after use")
                    .isInstanceOf(jakarta.jms.IllegalStateException.class);
        }
        try (Connection c = factory.createConnection()) {
            c.setClientID("app"); // released when its connection closed
        }
        try (JMSContext ctx = new MikyuConnectionFactory("vm://" + data + "?clientID=fixed").createContext()) {
            assertThat(ctx.getClientID()).isEqualTo("fixed");
        }
    }
}
