package io.mikyu.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mikyu.transport.Endpoint;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A dialled URI's options; a mistake in one is reported without the password that came with it. */
class ClientOptionsTest {

    private static final String PASSWORD = "correct-horse-battery";

    @Test
    void optionsComeFromTheQueryAndTheExplicitMapWins() {
        ClientOptions o = ClientOptions.from(URI.create("tcp://h:1?user=alice&password=a&requestTimeout=5s"),
                Map.of("password", "b"));
        assertThat(o.user()).isEqualTo("alice");
        assertThat(o.password()).isEqualTo("b");
        assertThat(o.requestTimeout()).hasSeconds(5);
        assertThat(o.toString()).doesNotContain("password", "b]");
    }

    @Test
    void durationsAreReadAsOnEverySurface() {
        ClientOptions o = ClientOptions.from(URI.create("tcp://h:1?heartbeat=1h&reconnect=1d&connectTimeout=PT5S"
                + "&requestTimeout=1m30s&streamIdle=500"), Map.of());
        assertThat(o.heartbeat()).isEqualTo(Duration.ofHours(1));
        assertThat(o.reconnect()).isEqualTo(Duration.ofDays(1));
        assertThat(o.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.requestTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(o.streamIdle()).as("a bare number is milliseconds, as documented").isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void aNegativeDurationIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> ClientOptions.from(URI.create("tcp://h:1?reconnect=-5s"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reconnect=-5s").hasMessageContaining("negative");
    }

    @Test
    void sizesAreReadAsOnEverySurface() {
        ClientOptions o = ClientOptions.from(URI.create("tcp://h:1?maxFrameBytes=32MiB&streamCreditBytes=8M"),
                Map.of());
        assertThat(o.maxFrameBytes()).isEqualTo(32 << 20);
        assertThat(o.streamCreditBytes()).isEqualTo(8L << 20);
        assertThat(ClientOptions.from(URI.create("tcp://h:1?maxFrameBytes=65536"), Map.of()).maxFrameBytes())
                .isEqualTo(65536);
    }

    @Test
    void aFrameLimitOutsideWhatTheProtocolAllowsIsRefusedNamingTheBounds() {
        assertThatThrownBy(() -> ClientOptions.from(URI.create("tcp://h:1?maxFrameBytes=4GiB"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxFrameBytes=4GiB").hasMessageContaining("at most 2147483647 bytes");
        assertThatThrownBy(() -> ClientOptions.from(URI.create("tcp://h:1?maxFrameBytes=1KiB"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxFrameBytes=1KiB").hasMessageContaining("at least 65536 bytes");
    }

    @Test
    void anOptionGivenTwiceIsRefusedRatherThanOneWinningSilently() {
        assertThatThrownBy(() -> ClientOptions.from(
                URI.create("tcp://h:1?password=" + PASSWORD + "&requestTimeout=5s&requestTimeout=50s"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("option 'requestTimeout' is given twice")
                .hasMessageNotContaining(PASSWORD);
    }

    @Test
    void anUnknownOptionIsNamedWithoutThePassword() {
        assertThatThrownBy(() -> ClientOptions.from(
                URI.create("tcp://h:1?user=alice&password=" + PASSWORD + "&requestTimout=5s"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option 'requestTimout'")
                .hasMessageContaining("password=****")
                .hasMessageNotContaining(PASSWORD);
    }

    @Test
    void aMalformedPairIsReportedWithoutThePassword() {
        assertThatThrownBy(() -> ClientOptions.from(URI.create("tcp://h:1?password=" + PASSWORD + "&=x"), Map.of()))
                .hasMessageContaining("is not name=value")
                .hasMessageNotContaining(PASSWORD);
    }

    @Test
    void aBadEndpointIsReportedWithoutThePassword() {
        assertThatThrownBy(() -> Endpoint.parse("tcp://alice:" + PASSWORD + "@/nowhere?password=" + PASSWORD))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a host and a port")
                .hasMessageNotContaining(PASSWORD);
    }
}
