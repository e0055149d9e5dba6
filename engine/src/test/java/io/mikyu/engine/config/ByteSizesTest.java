package io.mikyu.engine.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The rules of a size in bytes, on every surface: a table of what is accepted and what is refused. */
class ByteSizesTest {

    @ParameterizedTest
    @CsvSource({
        "0, 0",
        "512, 512",
        "512B, 512",
        "64KiB, 65536",
        "8MiB, 8388608",
        "1GiB, 1073741824",
        "2TiB, 2199023255552",
        "4K, 4096",
        "4k, 4096",
        "8M, 8388608",
        "1G, 1073741824",
        "1T, 1099511627776",
        "1KB, 1000",
        "1MB, 1000000",
        "1GB, 1000000000",
        "1TB, 1000000000000",
        "64mib, 67108864",
        "64MIB, 67108864",
        "1.5GiB, 1610612736",
        "0.5KiB, 512",
        "' 8 MiB ', 8388608",
        "9223372036854775807, 9223372036854775807",
    })
    void acceptsANumberAndAnOptionalUnit(String text, long bytes) {
        assertThat(ByteSizes.parse("k", text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "MiB", "10XB", "1 2MiB", "1.5", "0.5B", "64 Mi B", "0x10", "1e6", "+5", "1,024"})
    void refusesWhatIsNotASize(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> ByteSizes.parse("maxRecordBytes", text))
                .withMessageStartingWith("invalid size maxRecordBytes=" + text)
                .withMessageContaining("KiB").withMessageContaining("KB");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "-1KiB", "-0.5MiB"})
    void refusesNegativeSizes(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> ByteSizes.parse("k", text))
                .withMessageContaining("k=" + text).withMessageContaining("negative");
    }

    @ParameterizedTest
    @ValueSource(strings = {"9223372036854775808", "99999999999TiB", "8388608TiB", "99999999999999999999999"})
    void refusesSizesBeyondTheLargestLong(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> ByteSizes.parse("k", text))
                .withMessageContaining("at most 9223372036854775807 bytes");
    }

    @Test
    void anIntSizeIsBoundedByTheLargestInt() {
        assertThat(ByteSizes.parseInt("maxRecordBytes", "1GiB")).isEqualTo(1 << 30);
        assertThatIllegalArgumentException().isThrownBy(() -> ByteSizes.parseInt("maxRecordBytes", "2GiB"))
                .withMessageContaining("invalid size maxRecordBytes=2GiB")
                .withMessageContaining("at most 2147483647 bytes");
    }

    @Test
    void aKeysOwnBoundsAreNamed() {
        assertThatIllegalArgumentException().isThrownBy(() -> ByteSizes.parse("maxFrameBytes", "1KiB", 65536, 1 << 30))
                .withMessageContaining("maxFrameBytes=1KiB").withMessageContaining("at least 65536 bytes (64 KiB)");
    }

    @Test
    void withoutAKeyTheValueIsQuotedForTheCallerToNameIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> ByteSizes.parse(null, "10XB"))
                .withMessageStartingWith("invalid size '10XB'");
    }

    @Test
    void formatsInTheLargestBinaryUnit() {
        assertThat(ByteSizes.format(512)).isEqualTo("512 B");
        assertThat(ByteSizes.format(128L << 20)).isEqualTo("128 MiB");
        assertThat(ByteSizes.format(3L << 29)).isEqualTo("1.5 GiB");
    }
}
