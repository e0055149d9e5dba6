package io.mikyu.broker.server;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Task;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.security.PasswordHash;
import io.mikyu.engine.security.SecurityRealm;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.transport.Endpoint;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** tls:// listeners: PEM or key store certificates, clients that trust them, client certificates. */
class TlsTest {

    static TestCertificates certs;

    @BeforeAll
    static void makeCertificates() {
        certs = TestCertificates.get();
    }

    @TempDir
    Path dir;

    RunningBroker tlsBroker(Map<String, String> tls) {
        return new RunningBroker(dir, RunningBroker.ENGINE, o -> o.withTls(tls),
                List.of(Endpoint.parse("tls://127.0.0.1:0")));
    }

    Map<String, String> pemServer() {
        return Map.of("tls.cert", certs.serverChainPem.toString(), "tls.key", certs.serverKeyPem.toString());
    }

    String tcpUriOf(RunningBroker broker) {
        return "tcp://127.0.0.1:" + broker.endpoint().port();
    }

    @Test
    void shouldServeATlsClientThatTrustsTheCa() {
        try (RunningBroker broker = tlsBroker(pemServer());
             Mikyu client = Mikyu.dial(broker.uri(), Map.of("tls.ca", certs.caPem.toString()))) {
            assertThat(broker.uri()).startsWith("tls://127.0.0.1:");
            client.createLog("events").append(Entry.of("over tls"));
            assertThat(broker.store().log("events").read(0).payloadAsString()).isEqualTo("over tls");
        }
    }

    @Test
    void shouldRefuseAPlainClientOnATlsPort() {
        try (RunningBroker broker = tlsBroker(pemServer())) {
            assertThatThrownBy(() -> Mikyu.dial(tcpUriOf(broker) + "?connectTimeout=3s"))
                    .isInstanceOf(MikyuException.class);
            // the broker carries on for TLS clients
            try (Mikyu client = Mikyu.dial(broker.uri(), Map.of("tls.ca", certs.caPem.toString()))) {
                assertThat(client.isOpen()).isTrue();
            }
        }
    }

    @Test
    void shouldRefuseABrokerWhoseCertificateIsNotTrusted() {
        try (RunningBroker broker = tlsBroker(pemServer())) {
            // no tls.ca: the JDK's CAs do not know the test CA
            assertThatThrownBy(() -> Mikyu.dial(broker.uri() + "?connectTimeout=3s"))
                    .isInstanceOf(MikyuException.class).hasMessageContaining(broker.uri());
        }
    }

    @Test
    void shouldRequireATrustedClientCertificateWhenAsked() {
        Map<String, String> server = Map.of("tls.keystore", certs.serverKeystore.toString(),
                "tls.keystorePassword", TestCertificates.PASSWORD, "tls.ca", certs.clientCertPem.toString(),
                "tls.clientAuth", "require");
        try (RunningBroker broker = tlsBroker(server)) {
            try (Mikyu withPem = Mikyu.dial(broker.uri(), Map.of("tls.ca", certs.caPem.toString(),
                    "tls.cert", certs.clientCertPem.toString(), "tls.key", certs.clientKeyPem.toString()));
                 Mikyu withKeystore = Mikyu.dial(broker.uri(), Map.of("tls.ca", certs.caPem.toString(),
                         "tls.keystore", certs.clientKeystore.toString(),
                         "tls.keystorePassword", TestCertificates.PASSWORD))) {
                withPem.createLog("audit").append(Entry.of("a"));
                assertThat(withKeystore.log("audit").endOffset()).isEqualTo(1);
            }
            assertThatThrownBy(() -> Mikyu.dial(broker.uri() + "?connectTimeout=3s",
                    Map.of("tls.ca", certs.caPem.toString()))).isInstanceOf(MikyuException.class);
            assertThatThrownBy(() -> Mikyu.dial(broker.uri() + "?connectTimeout=3s",
                    Map.of("tls.ca", certs.caPem.toString(), "tls.keystore", certs.strangerKeystore.toString(),
                            "tls.keystorePassword", TestCertificates.PASSWORD))).isInstanceOf(MikyuException.class);
        }
    }

    @Test
    void shouldTakeAClientCertificateNamedInTheConfigurationAsItsUser() {
        SecurityRealm realm = SecurityRealm.from(MikyuConfig.load(null, Map.of(
                "users.app.certificate", "cn=app",      // compared as a name: case does not matter
                "users.app.roles", "writers",
                "users.admin.password", PasswordHash.hash("a-pass".toCharArray(), 1_000),
                "users.admin.roles", "admins",
                "roles.writers.produce", "orders",
                "roles.admins.manage", "*"), "test"));
        Map<String, String> server = Map.of("tls.keystore", certs.serverKeystore.toString(),
                "tls.keystorePassword", TestCertificates.PASSWORD, "tls.ca", certs.clientCertPem.toString(),
                "tls.clientAuth", "require");
        Map<String, String> client = Map.of("tls.ca", certs.caPem.toString(),
                "tls.cert", certs.clientCertPem.toString(), "tls.key", certs.clientKeyPem.toString());
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE,
                o -> o.withTls(server).withRealm(realm), List.of(Endpoint.parse("tls://127.0.0.1:0")))) {
            broker.store().createTaskQueue("orders");
            try (Mikyu app = Mikyu.dial(broker.uri(), client)) {
                assertThat(app.taskQueue("orders").enqueue(Task.of("by certificate"))).isZero();
                assertThatThrownBy(() -> app.taskQueue("orders").dequeue(Duration.ZERO))
                        .isInstanceOf(AccessDeniedException.class).hasMessageContaining("'app'");
                assertThatThrownBy(() -> app.createLog("mine")).isInstanceOf(AccessDeniedException.class);
            }
            Map<String, String> asAdmin = new java.util.HashMap<>(client);
            asAdmin.put("user", "admin");
            asAdmin.put("password", "a-pass");
            try (Mikyu admin = Mikyu.dial(broker.uri(), asAdmin)) {
                assertThat(admin.createLog("audit").name()).isEqualTo("audit");
            }
            Map<String, String> otherName = new java.util.HashMap<>(client);
            otherName.put("user", "admin");
            assertThatThrownBy(() -> Mikyu.dial(broker.uri(), otherName))
                    .as("a certificate of 'app' does not log in 'admin' without its password")
                    .isInstanceOf(AuthenticationException.class);
        }
    }

    @Test
    void shouldRefuseToStartATlsListenerWithoutACertificate() {
        assertThatThrownBy(() -> tlsBroker(Map.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tls.cert");
    }
}
