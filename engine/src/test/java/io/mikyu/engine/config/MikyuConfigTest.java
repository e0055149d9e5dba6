package io.mikyu.engine.config;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.config.MikyuConfig.Key;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
                dataDir = /var/lib/mikyu
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
        assertThat(config.get(Key.DATA_DIR)).isEqualTo("/var/lib/mikyu");
        assertThat(config.settings()).extracting(MikyuConfig.Setting::key).contains("dataDir", "tls.cert",
                "security.allowAnonymous");
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

    /** One rule on every surface: the config file, {@code -Dmikyu.<key>} and a URL or flag read a text alike. */
    @ParameterizedTest
    @CsvSource({
        "FLUSH_INTERVAL, 250ms, 250",
        "FLUSH_INTERVAL, 250, 250",
        "FLUSH_INTERVAL, 1h30m, 5400000",
        "FLUSH_INTERVAL, 2d, 172800000",
        "FLUSH_INTERVAL, PT5S, 5000",
        "FLUSH_INTERVAL, 10S, 10000",
        "HOUSEKEEPING_INTERVAL, 2w, 1209600000",
    })
    void aDurationMeansTheSameInTheFileASystemPropertyAndAUrl(Key key, String text, long millis) throws Exception {
        for (MikyuConfig config : everySource(key.key(), text)) {
            assertThat(config.duration(key)).as(config.setting(key.key()).source()).hasMillis(millis);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "4096, 4096",
        "64KiB, 65536",
        "64kib, 65536",
        "8M, 8388608",
        "1.5MiB, 1572864",
        "1KB, 1000",
    })
    void aSizeMeansTheSameInTheFileASystemPropertyAndAUrl(String text, long bytes) throws Exception {
        for (MikyuConfig config : everySource("cacheBytesPerQueue", text)) {
            assertThat(config.bytes(Key.CACHE_BYTES_PER_QUEUE)).as(config.setting("cacheBytesPerQueue").source())
                    .isEqualTo(bytes);
        }
    }

    private List<MikyuConfig> everySource(String key, String text) throws Exception {
        Path file = Files.writeString(dir.resolve("mikyu.conf"), key + " = " + text + "\n");
        MikyuConfig fromFile = MikyuConfig.load(file, Map.of(), "URL");
        MikyuConfig fromUrl = MikyuConfig.load(null, Map.of(key, text), "URL");
        System.setProperty("mikyu." + key, text);
        try {
            return List.of(fromFile, fromUrl, MikyuConfig.load(null, Map.of(), "URL"));
        } finally {
            System.clearProperty("mikyu." + key);
        }
    }

    @Test
    void shouldRefuseANegativeDuration() {
        MikyuConfig config = MikyuConfig.load(null, Map.of("flushInterval", "-5s", "housekeepingInterval", "-1"),
                "URL");
        assertThatThrownBy(() -> config.duration(Key.FLUSH_INTERVAL)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("flushInterval=-5s").hasMessageContaining("negative");
        assertThatThrownBy(() -> config.duration(Key.HOUSEKEEPING_INTERVAL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("housekeepingInterval=-1").hasMessageContaining("negative");
    }

    @Test
    void shouldRefuseARecordSizeBeyondAnIntNamingTheKey() {
        MikyuConfig config = MikyuConfig.load(null, Map.of("maxRecordBytes", "3GiB"), "URL");
        assertThatThrownBy(config::engineConfig).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxRecordBytes=3GiB").hasMessageContaining("at most 2147483647 bytes");
    }

    @Test
    void shouldPrintPasswordsMasked() {
        MikyuConfig config = MikyuConfig.load(null, Map.of("password", "s3cret", "tls.keystorePassword", "x"), "URL");
        assertThat(config.setting("password").printableValue()).isEqualTo("****");
        assertThat(config.setting("tls.keystorePassword").printableValue()).isEqualTo("****");
        assertThat(config.setting("user").printableValue()).isEmpty();
    }
}
