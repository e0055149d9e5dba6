package io.mikyu.jms.config;

import io.mikyu.engine.Durability;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.MikyuXAConnectionFactory;
import io.mikyu.jms.jndi.MikyuInitialContextFactory;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import org.junit.jupiter.api.Test;

import javax.naming.Context;
import javax.naming.InitialContext;
import java.time.Duration;
import java.util.Hashtable;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code kafka://} URLs: the provider's options kept, the Kafka backend's handed to {@code Mikyu.dial}, those that
 * make no sense on Kafka refused naming why; without the Kafka backend (not a dependency of this module) and for
 * XA, clear failures.
 */
class KafkaUrlTest {

    @Test
    void aKafkaUrlKeepsTheProviderOptionsAndHandsTheRestToTheBackend() {
        ProviderOptions o = ProviderOptions.parse("kafka://k1:9092,k2:9092?clientID=app&prefetch=4&maxAttempts=3"
                + "&leaseMillis=20s&durability=async&maxAttempts.orders=5&prefix=shop&replicationFactor=3"
                + "&clientName=billing&kafka.security.protocol=SASL_SSL");
        assertThat(o.isRemote()).isTrue();
        assertThat(o.isKafka()).isTrue();
        assertThat(o.brokerUri()).isEqualTo("kafka://k1:9092,k2:9092");
        assertThat(o.dataDir()).isNull();
        assertThat(o.clientId()).isEqualTo("app");
        assertThat(o.prefetch()).isEqualTo(4);
        assertThat(o.maxAttempts()).isEqualTo(3);
        assertThat(o.maxAttemptsOf("orders")).isEqualTo(5);
        assertThat(o.lease()).isEqualTo(Duration.ofSeconds(20));
        assertThat(o.persistentDurability()).isEqualTo(Durability.ASYNC);
        // no broker options added (reconnect, streams): the Kafka dialer would refuse them
        assertThat(o.dialOptions()).isEqualTo(Map.of("prefix", "shop", "replicationFactor", "3",
                "clientName", "billing", "kafka.security.protocol", "SASL_SSL"));
        assertThat(ProviderOptions.parse("kafka://k1:9092").dialOptions()).isEmpty();
        assertThat(ProviderOptions.parse("tcp://h:1").isKafka()).isFalse();
        assertThat(ProviderOptions.parse("vm://data").isKafka()).isFalse();
    }

    @Test
    void optionsThatMakeNoSenseOnKafkaAreRefusedSayingWhy() {
        assertRefused("transactionTimeout=30", "XA is not available on Kafka");
        assertRefused("prepareAhead=true", "XA is not available on Kafka");
        assertRefused("users=/etc/users", "credentials are checked by the Kafka cluster");
        assertRefused("user=a&password=b", "kafka.sasl.jaas.config");
        assertRefused("tls.ca=/ca.pem", "kafka.<setting>");
        assertRefused("reconnect=10s", "mikyu's own broker");
        assertRefused("streams=false", "mikyu's own broker");
        assertRefused("flushInterval=5ms", "embedded engine");
        assertRefused("largeMessageThreshold=1MiB", "max.message.bytes");
        assertRefused("config=/etc/mikyu.conf", "none applies to Kafka");
        assertThatThrownBy(() -> ProviderOptions.parse("kafka://"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names no broker");
        assertThatThrownBy(() -> ProviderOptions.parse("kafka://k:9092?prefetch=-1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefetch must be at least 0");
    }

    private static void assertRefused(String query, String why) {
        assertThatThrownBy(() -> ProviderOptions.parse("kafka://k:9092?" + query))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not for kafka:// URLs")
                .hasMessageContaining(why);
    }

    @Test
    void withoutTheKafkaBackendAConnectionFailsNamingTheArtifact() {
        MikyuConnectionFactory cf = new MikyuConnectionFactory("kafka://127.0.0.1:9");
        assertThatThrownBy(cf::createConnection)
                .isInstanceOf(JMSException.class)
                .hasMessageContaining("io.mikyu:mikyu-kafka")
                .hasMessageContaining("kafka://127.0.0.1:9");
        assertThatThrownBy(cf::createContext)
                .isInstanceOf(JMSRuntimeException.class)
                .hasMessageContaining("io.mikyu:mikyu-kafka");
    }

    @Test
    void xaIsRefusedNamingTheGapBeforeAnythingIsDialled() {
        MikyuXAConnectionFactory cf = new MikyuXAConnectionFactory("kafka://127.0.0.1:9");
        assertThatThrownBy(cf::createXAConnection)
                .isInstanceOf(JMSException.class)
                .hasMessageContaining("XA is not available on the Kafka backend")
                .hasMessageContaining("docs/kafka.md");
        assertThatThrownBy(cf::createXAContext)
                .isInstanceOf(JMSRuntimeException.class)
                .hasMessageContaining("XA is not available on the Kafka backend");
    }

    @Test
    void jndiBindsAKafkaConnectionFactory() throws Exception {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, MikyuInitialContextFactory.class.getName());
        env.put("connectionFactory.Cluster", "kafka://k1:9092?prefix=shop&clientID=app");
        Context ctx = new InitialContext(env);
        try {
            assertThat(ctx.lookup("Cluster")).isInstanceOf(ConnectionFactory.class);
        } finally {
            ctx.close();
        }
        env.put("connectionFactory.Bad", "kafka://k1:9092?reconnect=1s");
        assertThatThrownBy(() -> new InitialContext(env)).hasMessageContaining("is not for kafka:// URLs");
    }
}
