package io.mikyu.cli.units;

import io.mikyu.broker.server.BrokerConfig;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.config.MikyuConfig.Key;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnitsTest {

    @ParameterizedTest
    @CsvSource({
        "0, 0",
        "4096, 4096",
        "512B, 512",
        "1KiB, 1024",
        "1KB, 1000",
        "64MiB, 67108864",
        "64mib, 67108864",
        "1MB, 1000000",
        "10GiB, 10737418240",
        "1GB, 1000000000",
        "2TiB, 2199023255552",
        "4K, 4096",
        "1.5GiB, 1610612736",
        "' 8 MiB ', 8388608",
    })
    void parsesSizesWithBinaryAndDecimalUnits(String text, long bytes) {
        assertThat(Units.parseBytes(text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "MiB", "-1", "10XB", "1.5", "0.5B", "1 2MiB", "99999999999TiB"})
    void rejectsSizesThatAreNotAWholeNumberOfBytes(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> Units.parseBytes(text)).withMessageContaining(text);
    }

    @Test
    void aSizeErrorListsTheUnits() {
        assertThatIllegalArgumentException().isThrownBy(() -> Units.parseBytes("10XB"))
                .withMessageContaining("KiB").withMessageContaining("KB");
    }

    @ParameterizedTest
    @CsvSource({
        "500ms, PT0.5S",
        "30s, PT30S",
        "15m, PT15M",
        "12h, PT12H",
        "7d, PT168H",
        "2w, PT336H",
        "1h30m, PT1H30M",
        "PT15M, PT15M",
        "7D, PT168H",
    })
    void parsesDurations(String text, String iso) {
        assertThat(Units.parseDuration(text)).isEqualTo(Duration.parse(iso));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "7", "d", "7x", "1h 30m", "h1", "P", "-5m"})
    void rejectsDurationsWithoutAUnit(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> Units.parseDuration(text))
                .withMessageContaining("invalid duration");
    }

    @Test
    void formatsBytesInTheLargestBinaryUnit() {
        assertThat(Units.formatBytes(512)).isEqualTo("512 B");
        assertThat(Units.formatBytes(128L << 20)).isEqualTo("128 MiB");
        assertThat(Units.formatBytes(3L << 29)).isEqualTo("1.5 GiB");
    }

    @Test
    void formatsDurationsInTheirLargestExactUnit() {
        assertThat(Units.formatDuration(Duration.ofDays(14))).isEqualTo("14d");
        assertThat(Units.formatDuration(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(Units.formatDuration(Duration.ofMillis(1500))).isEqualTo("1500ms");
    }

    /** A flag reads a text as the config file (and so {@code -Dmikyu.<key>} and URLs) reads it. */
    @ParameterizedTest
    @ValueSource(strings = {"1h30m", "PT5S", "2w", "250ms", "10S", "1d", "0"})
    void aDurationFlagMeansWhatTheSameTextMeansInTheConfigFile(String text) {
        Duration flag = new Units.DurationConverter().convert(text);
        Duration config = MikyuConfig.load(null, Map.of("heartbeat", text), "flag").duration(BrokerConfig.Key.HEARTBEAT);
        assertThat(flag).isEqualTo(config);
    }

    @ParameterizedTest
    @ValueSource(strings = {"512", "64mib", "1.5MiB", "4K", "1KB", "2GiB"})
    void aSizeFlagMeansWhatTheSameTextMeansInTheConfigFile(String text) {
        long flag = new Units.ByteSizeConverter().convert(text);
        long config = MikyuConfig.load(null, Map.of("minFreeDiskBytes", text), "flag").bytes(Key.MIN_FREE_DISK_BYTES);
        assertThat(flag).isEqualTo(config);
    }

    @Test
    void aBareNumberOnTheCommandLineIsRefusedNamingTheFormsWithAUnit() {
        assertThatThrownBy(() -> new Units.DurationConverter().convert("250"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("invalid duration '250'").hasMessageContaining("250ms or 250s");
    }
}
