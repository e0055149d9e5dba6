package io.mikyu.jms.config;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.config.MikyuConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Durations, sizes and the query of a provider URL follow the rules of every surface
 * ({@code docs/configuration.md}, "Values: durations and sizes").
 */
class UrlValuesTest {

    @TempDir
    Path dir;

    @Test
    void theProvidersDurationsTakeUnits() {
        ProviderOptions o = ProviderOptions.parse("vm://data?redeliveryDelay=2s&leaseMillis=1m&transactionTimeout=5m"
                + "&redeliveryDelay.orders=1h30m");
        assertThat(o.redeliveryDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(o.lease()).isEqualTo(Duration.ofMinutes(1));
        assertThat(o.transactionTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(o.redeliveryDelayOf("orders")).isEqualTo(Duration.ofMinutes(90));
    }

    @Test
    void aBareNumberKeepsTheUnitEachOptionDocuments() {
        ProviderOptions o = ProviderOptions.parse("vm://data?redeliveryDelay=500&leaseMillis=30000"
                + "&transactionTimeout=60&redeliveryDelay.orders=250");
        assertThat(o.redeliveryDelay()).isEqualTo(Duration.ofMillis(500));
        assertThat(o.lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.transactionTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(o.redeliveryDelayOf("orders")).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void aWrongDurationIsNamedWithTheFormsAndWithoutThePassword() {
        assertThatThrownBy(() -> ProviderOptions.parse("tcp://h:1?password=secret-one&redeliveryDelay=soon"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redeliveryDelay=soon").hasMessageContaining("250ms, 5s, 2m, 1h, 1d")
                .hasMessageContaining("password=****").hasMessageNotContaining("secret-one");
        assertThatThrownBy(() -> ProviderOptions.parse("vm://data?redeliveryDelay=-1s"))
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> ProviderOptions.parse("vm://data?leaseMillis=50ms"))
                .hasMessageContaining("leaseMillis must be at least 100ms");
        assertThatThrownBy(() -> ProviderOptions.parse("vm://data?transactionTimeout=1500ms"))
                .hasMessageContaining("transactionTimeout must be whole seconds");
    }

    @Test
    void anOptionGivenTwiceIsRefusedRatherThanOneWinningSilently() {
        assertThatThrownBy(() -> ProviderOptions.parse("vm://data?prefetch=1&prefetch=100"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("option 'prefetch' is given twice");
    }

    @Test
    void aMalformedEscapeIsNamed() {
        assertThatThrownBy(() -> ProviderOptions.parse("vm://data?clientID=100%"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the value of option 'clientID'").hasMessageContaining("percent-encoded");
    }

    /** A vm:// URL's engine keys and the config file read the same text into the same value. */
    @Test
    void anEngineKeyInAUrlMeansWhatItMeansInTheConfigFile() throws Exception {
        String[][] cases = {
            {"flushInterval", "1h30m"}, {"flushInterval", "PT5S"}, {"flushInterval", "250"},
            {"housekeepingInterval", "2d"}, {"cacheBytesPerQueue", "64mib"}, {"cacheBytesPerQueue", "1.5MiB"},
            {"maxRecordBytes", "4M"}, {"minFreeDiskBytes", "1GB"},
        };
        for (String[] c : cases) {
            ProviderOptions url = ProviderOptions.parse("vm://data?" + c[0] + "=" + c[1]);
            EngineConfig fromUrl = MikyuConfig.load(null, url.configOverrides(), "URL").engineConfig().build();
            Path file = Files.writeString(dir.resolve("mikyu.conf"), c[0] + " = " + c[1] + "\n");
            EngineConfig fromFile = MikyuConfig.load(file, Map.of(), "URL").engineConfig().build();
            assertThat(fromUrl).as(c[0] + "=" + c[1]).usingRecursiveComparison()
                    .ignoringFields("meterRegistry", "timeSource").isEqualTo(fromFile);
            assertThat(fromUrl).as(c[0] + "=" + c[1] + " is not the default").usingRecursiveComparison()
                    .ignoringFields("meterRegistry", "timeSource").isNotEqualTo(EngineConfig.builder().build());
        }
    }
}
