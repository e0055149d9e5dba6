package io.mikyu.cli.units;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

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
}
