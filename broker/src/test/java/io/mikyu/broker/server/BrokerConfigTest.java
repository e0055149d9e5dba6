package io.mikyu.broker.server;

import io.mikyu.engine.config.MikyuConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The broker's keys share the configuration file with the engine's: read alike, listed alike, typos refused. */
class BrokerConfigTest {

    @TempDir
    Path dir;

    @Test
    void shouldReadTheBrokersKeysFromTheSharedFileBesideTheEngines() throws Exception {
        Path file = Files.writeString(dir.resolve("mikyu.conf"), """
                flushInterval = 1s
                listen = tcp://0.0.0.0:7420
                heartbeat = 3s
                metrics.port = 9464
                """);

        MikyuConfig config = MikyuConfig.load(file, Map.of("maxConnections", "50"), "flag");

        assertThat(config.get(BrokerConfig.Key.LISTEN)).isEqualTo("tcp://0.0.0.0:7420");
        assertThat(config.setting("listen").source()).isEqualTo("file " + file);
        assertThat(config.duration(BrokerConfig.Key.HEARTBEAT)).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.count(BrokerConfig.Key.MAX_CONNECTIONS)).isEqualTo(50);
        assertThat(config.setting("maxConnections").source()).isEqualTo("flag");
        assertThat(config.get(BrokerConfig.Key.METRICS_HOST)).isEqualTo("127.0.0.1");
        assertThat(config.setting("metrics.host").source()).isEqualTo("default");
        assertThat(config.duration(MikyuConfig.Key.FLUSH_INTERVAL)).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.settings()).extracting(MikyuConfig.Setting::key)
                .contains("dataDir", "flushInterval", "listen", "tls.cert", "tls.clientAuth", "metrics.port",
                        "security.maxLoginDelay");
        assertThat(MikyuConfig.keys()).contains(BrokerConfig.Key.values());
    }

    @Test
    void shouldRefuseAMisspelledBrokerKeyNamingItAndTheKnownOnes() throws Exception {
        Path file = Files.writeString(dir.resolve("mikyu.conf"), "listn = tcp://0.0.0.0:7420\n");
        assertThatThrownBy(() -> MikyuConfig.load(file, Map.of(), "flag"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'listn'").hasMessageContaining(file.toString())
                .hasMessageContaining("listen,").hasMessageContaining("metrics.port,");
        assertThatThrownBy(() -> MikyuConfig.load(null, Map.of("metrics.prot", "9464"), "flag"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'metrics.prot'");
    }

    /** docs/configuration.md keeps listing every key: each of the broker's has a row with its default. */
    @Test
    void everyBrokerKeyHasARowWithItsDefaultInTheConfigurationDocs() throws Exception {
        Path docs = Path.of("").toAbsolutePath();
        while (!Files.exists(docs.resolve("docs/configuration.md"))) {
            docs = docs.getParent();
        }
        List<String> rows = Files.readAllLines(docs.resolve("docs/configuration.md")).stream()
                .filter(l -> l.startsWith("| `")).toList();
        for (BrokerConfig.Key key : BrokerConfig.Key.values()) {
            assertThat(rows).as("the row of " + key.key())
                    .anySatisfy(row -> assertThat(row.split("\\|")[1]).contains("`" + key.key() + "`"))
                    .filteredOn(row -> row.split("\\|")[1].contains("`" + key.key() + "`"))
                    .allSatisfy(row -> assertThat(row).contains(key.defaultValue()));
        }
    }

    @Test
    void shouldRefuseANegativeHeartbeat() {
        MikyuConfig config = MikyuConfig.load(null, Map.of("heartbeat", "-1"), "flag");
        assertThatThrownBy(() -> config.duration(BrokerConfig.Key.HEARTBEAT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("heartbeat=-1").hasMessageContaining("negative");
    }
}
