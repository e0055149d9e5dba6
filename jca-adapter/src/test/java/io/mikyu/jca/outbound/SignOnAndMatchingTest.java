package io.mikyu.jca.outbound;

import io.mikyu.engine.security.PasswordHash;
import io.mikyu.jca.testkit.TestConnectionManager;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.Session;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.SecurityException;
import jakarta.resource.spi.security.PasswordCredential;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.security.auth.Subject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Who a pooled connection is: the configured user, the application's ({@code createConnection(user, password)}) or
 * the container's (a Subject's PasswordCredential); a free connection is reused only for the same user and the
 * same settings. The store has users (alice may use a.*, bob b.*), so a send proves who signed on.
 */
@Timeout(60)
class SignOnAndMatchingTest {

    @TempDir
    Path data;
    private MikyuManagedConnectionFactory mcf;
    private TestConnectionManager cm;
    private ConnectionFactory cf;

    @BeforeEach
    void open() throws Exception {
        Path users = data.resolve("users.conf");
        Files.writeString(users, String.join("\n",
                "users.alice.password = " + PasswordHash.hash("a-pw".toCharArray(), 1_000),
                "users.alice.roles = a",
                "roles.a.produce = a.*",
                "users.bob.password = " + PasswordHash.hash("b-pw".toCharArray(), 1_000),
                "users.bob.roles = b",
                "roles.b.produce = b.*", ""));
        mcf = new MikyuManagedConnectionFactory();
        mcf.setUrl("vm://" + data.resolve("store") + "?durability=async");
        mcf.setUsers(users.toString());
        mcf.setUser("alice");
        mcf.setPassword("a-pw");
        cm = new TestConnectionManager(null);
        cf = (ConnectionFactory) mcf.createConnectionFactory(cm);
    }

    @AfterEach
    void close() {
        cm.close();
    }

    private static void send(Connection c, String queue) throws Exception {
        Session s = c.createSession();
        s.createProducer(s.createQueue(queue)).send(s.createTextMessage("x"));
        s.close();
    }

    @Test
    void theConfiguredUserTheApplicationsAndTheContainersEachGetTheirOwnConnections() throws Exception {
        try (Connection alice = cf.createConnection()) {
            send(alice, "a.orders");
            assertThatThrownBy(() -> send(alice, "b.orders")).isInstanceOf(JMSSecurityException.class);
        }
        try (Connection bob = cf.createConnection("bob", "b-pw")) {
            send(bob, "b.orders");
            assertThatThrownBy(() -> send(bob, "a.orders")).isInstanceOf(JMSSecurityException.class);
        }
        assertThat(cm.created()).as("bob's credentials did not match alice's connection").isEqualTo(2);
        try (Connection alice = cf.createConnection(); Connection bob = cf.createConnection("bob", "b-pw")) {
            send(alice, "a.orders");
            send(bob, "b.orders");
        }
        assertThat(cm.created()).as("each reused its own").isEqualTo(2);

        Subject subject = new Subject();
        PasswordCredential credential = new PasswordCredential("bob", "b-pw".toCharArray());
        credential.setManagedConnectionFactory(mcf);
        subject.getPrivateCredentials().add(credential);
        cm.subject = subject;
        try (Connection container = cf.createConnection()) {
            send(container, "b.orders"); // the container's user, not the configured alice
            assertThatThrownBy(() -> send(container, "a.orders")).isInstanceOf(JMSSecurityException.class);
        }
        assertThat(cm.created()).as("bob's pooled connection served the container's bob").isEqualTo(2);
    }

    @Test
    void wrongCredentialsAreASecurityException() {
        assertThatThrownBy(() -> cf.createConnection("bob", "wrong")).isInstanceOf(JMSSecurityException.class)
                .hasMessageContaining("bob");
        assertThatThrownBy(() -> cf.createContext("bob", "wrong")).isInstanceOf(JMSSecurityRuntimeException.class);
    }

    @Test
    void matchingIsByCredentialsAndSettings() throws Exception {
        ManagedConnection alice = mcf.createManagedConnection(null, null);
        ManagedConnection bob = mcf.createManagedConnection(null, new MikyuConnectionRequestInfo("bob", "b-pw"));
        try {
            Set<ManagedConnection> free = new LinkedHashSet<>(Set.of(alice, bob));
            assertThat(mcf.matchManagedConnections(free, null, new MikyuConnectionRequestInfo("bob", "b-pw")))
                    .isSameAs(bob);
            assertThat(mcf.matchManagedConnections(free, null, new MikyuConnectionRequestInfo(null, null)))
                    .isSameAs(alice);
            assertThat(mcf.matchManagedConnections(free, null, new MikyuConnectionRequestInfo("bob", "other")))
                    .isNull();

            MikyuManagedConnectionFactory elsewhere = new MikyuManagedConnectionFactory();
            elsewhere.setUrl(mcf.getUrl());
            elsewhere.setUsers(mcf.getUsers());
            elsewhere.setUser("alice");
            elsewhere.setPassword("a-pw");
            elsewhere.setMaxAttempts(3); // other settings: another URL
            assertThat(elsewhere.matchManagedConnections(free, null, null)).isNull();

            assertThatThrownBy(() -> alice.getConnection(null, new MikyuConnectionRequestInfo("bob", "b-pw")))
                    .isInstanceOf(SecurityException.class).hasMessageContaining("re-authentication");
            assertThat(alice.getMetaData().getUserName()).isEqualTo("alice");
            assertThat(alice.getMetaData().getEISProductName()).isEqualTo("mikyu");
        } finally {
            alice.destroy();
            bob.destroy();
        }
    }
}
