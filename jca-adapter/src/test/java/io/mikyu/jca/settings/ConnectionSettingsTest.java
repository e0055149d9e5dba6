package io.mikyu.jca.settings;

import io.mikyu.jca.MikyuResourceAdapter;
import io.mikyu.jca.outbound.MikyuManagedConnectionFactory;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapterInternalException;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.jms.config.ProviderOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The properties become one provider URL, in one place, checked by the provider's parser. */
class ConnectionSettingsTest {

    @TempDir
    Path dir;

    @Test
    void withoutAUrlConnectionsGoToTheLocalDaemon() {
        ConnectionSettings s = ConnectionSettings.resolve(new MikyuResourceAdapter());
        assertThat(s.url()).isEqualTo("tcp://127.0.0.1:7420");
        assertThat(s.user()).isNull();
    }

    @Test
    void propertiesBecomeUrlOptionsAndOverrideTheUrlsOwn() {
        MikyuResourceAdapter ra = new MikyuResourceAdapter();
        ra.setUrl("vm:///var/lib/mikyu?durability=async&prefetch=8");
        ra.setDurability("sync");
        ra.setMaxAttempts(3);
        ra.setRedeliveryDelay(250);
        ra.setFlushInterval("100ms");
        ConnectionSettings s = ConnectionSettings.resolve(ra);
        assertThat(s.url()).isEqualTo("vm:///var/lib/mikyu?durability=sync&prefetch=8&maxAttempts=3"
                + "&redeliveryDelay=250&flushInterval=100ms");
        assertThat(s.options().maxAttempts()).isEqualTo(3);
        assertThat(s.options().prefetch()).isEqualTo(8);
        assertThat(s.options().redeliveryDelay()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void clientIdIsTheSamePropertyAsClientID() throws Exception {
        // the name WildFly gives @JMSConnectionFactoryDefinition(clientId = ...) when it configures the pool
        MikyuManagedConnectionFactory pool = new MikyuManagedConnectionFactory();
        pool.setResourceAdapter(new MikyuResourceAdapter());
        pool.setClientId("billing");
        assertThat(pool.getClientID()).isEqualTo("billing");
        assertThat(pool.getClientId()).isEqualTo("billing");
        assertThat(pool.settings().url()).isEqualTo("tcp://127.0.0.1:7420?clientID=billing");
    }

    @Test
    void aPoolOverridesTheAdapter() throws Exception {
        MikyuResourceAdapter ra = new MikyuResourceAdapter();
        ra.setUrl("tcp://broker:7420");
        ra.setUser("app");
        ra.setPassword("secret");
        ra.setMaxAttempts(5);
        ra.setTlsCa("/etc/mikyu/ca.pem");
        MikyuManagedConnectionFactory pool = new MikyuManagedConnectionFactory();
        pool.setResourceAdapter(ra);
        pool.setMaxAttempts(2);
        pool.setClientID("billing");
        ConnectionSettings s = pool.settings();
        assertThat(s.url())
                .isEqualTo("tcp://broker:7420?maxAttempts=2&tls.ca=%2Fetc%2Fmikyu%2Fca.pem&clientID=billing");
        assertThat(s.options().dialOptions()).containsEntry("tls.ca", "/etc/mikyu/ca.pem");
        assertThat(s.user()).isEqualTo("app");
        assertThat(s.password()).isEqualTo("secret");
        assertThat(s.describe()).doesNotContain("secret");

        pool.setUrl("unix:///run/mikyu.sock");
        pool.setUser("other");
        pool.setPassword("pw");
        assertThat(pool.settings().url()).startsWith("unix:///run/mikyu.sock?maxAttempts=2");
        assertThat(pool.settings().user()).isEqualTo("other");
    }

    @Test
    void aWrongValueFailsWithTheProvidersMessage() {
        MikyuResourceAdapter ra = new MikyuResourceAdapter();
        ra.setUrl("vm://data");
        ra.setDurability("sometimes");
        assertThatThrownBy(ra::settings).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("durability must be sync or async");
        assertThatThrownBy(() -> ra.start(null)).isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessageContaining("durability");

        MikyuResourceAdapter remote = new MikyuResourceAdapter();
        remote.setUrl("tcp://broker:7420");
        remote.setUsers("/etc/users");
        assertThatThrownBy(remote::settings).hasMessageContaining("for vm:// engines only");

        MikyuResourceAdapter bad = new MikyuResourceAdapter();
        bad.setUrl("http://example");
        assertThatThrownBy(bad::settings).hasMessageContaining("is not a mikyu URL");
    }

    /** A property's text means what the same text means as a URL option or a config file key. */
    @Test
    void aPropertyMeansWhatTheSameTextMeansInAUrlAndTheConfigFile() throws Exception {
        MikyuResourceAdapter ra = new MikyuResourceAdapter();
        ra.setUrl("vm:///var/lib/mikyu");
        ra.setFlushInterval("1h30m");
        ra.setHousekeepingInterval("PT5S");
        ra.setCacheBytesPerQueue("64mib");
        ra.setMaxRecordBytes("1.5MiB");
        ra.setRedeliveryDelay(250);
        ConnectionSettings s = ConnectionSettings.resolve(ra);
        EngineConfig engine = MikyuConfig.load(null, s.options().configOverrides(), "URL").engineConfig().build();
        assertThat(engine.flushInterval()).isEqualTo(Duration.ofMinutes(90));
        assertThat(engine.housekeepingInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(engine.cacheBytesPerQueue()).isEqualTo(64L << 20);
        assertThat(engine.maxRecordBytes()).isEqualTo(3 << 19);
        assertThat(s.options().redeliveryDelay())
                .isEqualTo(ProviderOptions.parse("vm://d?redeliveryDelay=250").redeliveryDelay())
                .isEqualTo(Duration.ofMillis(250));

        Path file = Files.writeString(dir.resolve("mikyu.conf"), "flushInterval = 1h30m\ncacheBytesPerQueue = 64mib\n");
        EngineConfig fromFile = MikyuConfig.load(file, Map.of(), "file").engineConfig().build();
        assertThat(fromFile.flushInterval()).isEqualTo(engine.flushInterval());
        assertThat(fromFile.cacheBytesPerQueue()).isEqualTo(engine.cacheBytesPerQueue());
    }

    @Test
    void aWrongDurationFailsNamingTheOptionAndTheForms() {
        MikyuResourceAdapter ra = new MikyuResourceAdapter();
        ra.setUrl("tcp://broker:7420?password=secret-one&redeliveryDelay=soon");
        assertThatThrownBy(ra::settings).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("redeliveryDelay=soon").hasMessageContaining("250ms, 5s, 2m, 1h, 1d")
                .hasMessageNotContaining("secret-one");
        MikyuResourceAdapter negative = new MikyuResourceAdapter();
        negative.setUrl("tcp://broker:7420");
        negative.setLeaseMillis(-5);
        assertThatThrownBy(negative::settings).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("leaseMillis=-5").hasMessageContaining("negative");
    }

    @Test
    void unsetPropertiesAreNullAndBlankUnsets() {
        MikyuResourceAdapter ra = new MikyuResourceAdapter();
        assertThat(ra.getMaxAttempts()).isNull();
        ra.setClientID("x");
        ra.setClientID(" ");
        assertThat(ra.getClientID()).isNull();
        ra.setStreams(true);
        assertThat(ra.getStreams()).isTrue();
        assertThat(ra.options()).containsEntry("streams", "true");
    }
}
