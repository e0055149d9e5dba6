package io.mikyu.engine.config;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.config.MikyuConfig.Key;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MikyuConfigTest {

    @TempDir
    Path dir;

    @AfterEach
    void clearProperties() {
        System.clearProperty("mikyu.flushInterval");
        System.clearProperty("mikyu.maxRecordBytes");
    }

    @Test
    void shouldTakeEachValueFromTheStrongestSourceAndSayWhichItWas() throws Exception {
        Path file = Files.writeString(dir.resolve("mikyu.conf"), """
                # engine
                flushInterval = 1s
                maxRecordBytes = 1MiB
                cacheBytesPerQueue = 4MiB
                listen = tcp://0.0.0.0:7420
                """);
        System.setProperty("mikyu.flushInterval", "500ms");
        System.setProperty("mikyu.maxRecordBytes", "2MiB");

        MikyuConfig config = MikyuConfig.load(file, Map.of("maxRecordBytes", "3MiB"), "command line");

        assertThat(config.setting("flushInterval").value()).isEqualTo("500ms");
        assertThat(config.setting("flushInterval").source()).isEqualTo("system property mikyu.flushInterval");
        assertThat(config.setting("maxRecordBytes").source()).isEqualTo("command line");
        assertThat(config.setting("cacheBytesPerQueue").source()).isEqualTo("file " + file);
        assertThat(config.setting("housekeepingInterval").source()).isEqualTo("default");
        EngineConfig engine = config.engineConfig().build();
        assertThat(engine.flushInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(engine.maxRecordBytes()).isEqualTo(3 << 20);
        assertThat(engine.cacheBytesPerQueue()).isEqualTo(4L << 20);
        assertThat(engine.defaultDurability()).isEqualTo(Durability.ASYNC);
        assertThat(config.get(Key.LISTEN)).isEqualTo("tcp://0.0.0.0:7420");
        assertThat(config.settings()).extracting(MikyuConfig.Setting::key).contains("dataDir", "tls.cert",
                "metrics.port", "security.allowAnonymous");
    }

    @Test
    void shouldRefuseAnUnknownKeyNamingItAndTheFile() throws Exception {
        Path file = Files.writeString(dir.resolve("mikyu.conf"), "flushIntervall = 1s\n");
        assertThatThrownBy(() -> MikyuConfig.load(file, Map.of(), "URL"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("flushIntervall").hasMessageContaining(file.toString())
                .hasMessageContaining("flushInterval,");
    }

    @Test
    void shouldRefuseAValueOfTheWrongKind() {
        MikyuConfig config = MikyuConfig.load(null, Map.of("flushInterval", "soon"), "URL");
        assertThatThrownBy(config::engineConfig).hasMessageContaining("flushInterval=soon");
    }

    @Test
    void shouldPrintPasswordsMasked() {
        MikyuConfig config = MikyuConfig.load(null, Map.of("password", "s3cret", "tls.keystorePassword", "x"), "URL");
        assertThat(config.setting("password").printableValue()).isEqualTo("****");
        assertThat(config.setting("tls.keystorePassword").printableValue()).isEqualTo("****");
        assertThat(config.setting("user").printableValue()).isEmpty();
    }
}
