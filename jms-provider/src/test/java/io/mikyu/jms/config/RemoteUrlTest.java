package io.mikyu.jms.config;

import io.mikyu.engine.Durability;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.JMSException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Broker URLs: parsed with the same options as vm://, and without the network client a clear failure. */
class RemoteUrlTest {

    @Test
    void aTcpUrlNamesTheBrokerAndKeepsTheClientSideOptions() {
        ProviderOptions o = ProviderOptions.parse("tcp://127.0.0.1:7420?durability=async&clientID=app&prefetch=4"
                + "&maxAttempts=3&redeliveryDelay=50&leaseMillis=1000&clientName=billing&requestTimeout=5s");
        assertThat(o.isRemote()).isTrue();
        assertThat(o.brokerUri()).isEqualTo("tcp://127.0.0.1:7420");
        assertThat(o.dataDir()).isNull();
        assertThat(o.persistentDurability()).isEqualTo(Durability.ASYNC);
        assertThat(o.clientId()).isEqualTo("app");
        assertThat(o.prefetch()).isEqualTo(4);
        assertThat(o.maxAttempts()).isEqualTo(3);
        assertThat(o.redeliveryDelay()).isEqualTo(Duration.ofMillis(50));
        assertThat(o.lease()).isEqualTo(Duration.ofSeconds(1));
        assertThat(o.dialOptions()).isEqualTo(Map.of("clientName", "billing", "requestTimeout", "5s",
                "reconnect", ProviderOptions.DEFAULT_RECONNECT));
        assertThat(ProviderOptions.parse("tcp://h:1?reconnect=0").dialOptions()).containsEntry("reconnect", "0");
    }

    @Test
    void consumerStreamOptionsGoToTheClientAndPrefetchZeroTurnsStreamsOff() {
        assertThat(ProviderOptions.parse("tcp://h:1?streamCredit=16&streamIdle=2s").dialOptions())
                .containsEntry("streamCredit", "16").containsEntry("streamIdle", "2s").doesNotContainKey("streams");
        assertThat(ProviderOptions.parse("tcp://h:1?prefetch=0").dialOptions()).containsEntry("streams", "false");
        assertThat(ProviderOptions.parse("tcp://h:1?prefetch=0&streams=true").dialOptions())
                .containsEntry("streams", "true");
    }

    @Test
    void aUnixUrlNamesTheSocketFile() {
        ProviderOptions o = ProviderOptions.parse("unix:///run/mikyu/mikyu.sock");
        assertThat(o.brokerUri()).isEqualTo("unix:///run/mikyu/mikyu.sock");
        assertThat(o.dialOptions()).containsOnlyKeys("reconnect");
        assertThat(o.persistentDurability()).isEqualTo(Durability.SYNC);
    }

    @Test
    void vmUrlsAreUnchangedAndRefuseNetworkOptions() {
        ProviderOptions o = ProviderOptions.parse("vm://data?prefetch=2");
        assertThat(o.isRemote()).isFalse();
        assertThat(o.dataDir()).hasToString("data");
        assertThatThrownBy(() -> ProviderOptions.parse("vm://data?clientName=x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown option 'clientName'");
    }

    @Test
    void wrongRemoteUrlsAreRefusedSayingWhy() {
        assertThatThrownBy(() -> ProviderOptions.parse("tcp://"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names no broker");
        assertThatThrownBy(() -> ProviderOptions.parse("tcp://h:1?users=/etc/users"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("for vm:// engines only");
        assertThatThrownBy(() -> ProviderOptions.parse("tcp://h:1?prefetsh=1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown option 'prefetsh'")
                .hasMessageContaining("connectTimeout");
        assertThatThrownBy(() -> ProviderOptions.parse("http://h:1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a mikyu URL");
    }

    @Test
    void withoutTheNetworkClientATcpConnectionFailsNamingTheArtifact() {
        // mikyu-client is not a dependency of this module, so no Dialer is on the test class path.
        MikyuConnectionFactory cf = new MikyuConnectionFactory("tcp://127.0.0.1:7420");
        assertThatThrownBy(cf::createConnection)
                .isInstanceOf(JMSException.class)
                .hasMessageContaining("io.mikyu:mikyu-client")
                .hasMessageContaining("tcp://127.0.0.1:7420");
        assertThatThrownBy(cf::createContext)
                .isInstanceOf(jakarta.jms.JMSRuntimeException.class)
                .hasMessageContaining("io.mikyu:mikyu-client");
    }
}
