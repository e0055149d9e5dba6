package io.mikyu.engine.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The rules of a duration, on every surface: a table of what is accepted and what is refused. */
class DurationsTest {

    @ParameterizedTest
    @CsvSource({
        "0, PT0S",
        "0ms, PT0S",
        "250ms, PT0.25S",
        "5s, PT5S",
        "2m, PT2M",
        "1h, PT1H",
        "1d, PT24H",
        "2w, PT336H",
        "1h30m, PT1H30M",
        "1m30s500ms, PT1M30.5S",
        "10S, PT10S",
        "7D, PT168H",
        "' 10 s ', PT10S",
        "PT5S, PT5S",
        "pt0.5s, PT0.5S",
        "P1D, PT24H",
        "PT15M, PT15M",
    })
    void acceptsANumberWithAUnitOrIso8601(String text, String iso) {
        assertThat(Durations.parse("k", text)).isEqualTo(Duration.parse(iso));
        assertThat(Durations.parse("k", text, ChronoUnit.MILLIS)).isEqualTo(Duration.parse(iso));
    }

    @ParameterizedTest
    @CsvSource({
        "500, MILLIS, PT0.5S",
        "200, MILLIS, PT0.2S",
        "60, SECONDS, PT1M",
        "0, SECONDS, PT0S",
    })
    void readsABareNumberInTheUnitTheKeyDocuments(String text, ChronoUnit unit, String iso) {
        assertThat(Durations.parse("k", text, unit)).isEqualTo(Duration.parse(iso));
    }

    @Test
    void refusesABareNumberWhereNoUnitIsDocumentedAndSaysTheForms() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("retentionAge", "30"))
                .withMessageContaining("invalid duration retentionAge=30")
                .withMessageContaining("a number needs a unit here, e.g. 30ms or 30s")
                .withMessageContaining("250ms, 5s, 2m, 1h, 1d");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "s", "ms", "5", "5x", "5 mins", "1.5s", "1h 30m", "h1", "P", "PTS", "five seconds",
        "5s5", "0x10s", "+5s"})
    void refusesWhatIsNotADuration(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("flushInterval", text))
                .withMessageStartingWith("invalid duration flushInterval=" + text)
                .withMessageContaining("expected a whole number and a unit");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5s", "-1", "-PT5S", "PT-5S", "-0.5s"})
    void refusesNegativeDurations(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("flushInterval", text, ChronoUnit.MILLIS))
                .withMessageContaining("flushInterval=" + text)
                .withMessageContaining("negative");
    }

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999ms", "9223372036854775807d", "1000000000000w",
        "PT9223372036854775807S", "9223372036854775807s1ms"})
    void refusesDurationsTooLongForMilliseconds(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("k", text))
                .withMessageContaining("too long");
    }

    @Test
    void aBareNumberRefusedByAKeyReadInMillisecondsSaysSo() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("heartbeat", "soon", ChronoUnit.MILLIS))
                .withMessageContaining("a bare number is milliseconds");
    }

    @Test
    void withoutAKeyTheValueIsQuotedForTheCallerToNameIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse(null, "7"))
                .withMessageStartingWith("invalid duration '7'");
    }

    @Test
    void neverShowsTheValueOfASecret() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("tls.keyPassword", "hunter2"))
                .withMessageContaining("tls.keyPassword=****")
                .withMessageNotContaining("hunter2");
    }

    @Test
    void formatsInTheLargestExactUnit() {
        assertThat(Durations.format(Duration.ofDays(14))).isEqualTo("14d");
        assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.parse("k", Durations.format(Duration.ofMillis(1500)))).hasMillis(1500);
    }
}
