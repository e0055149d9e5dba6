package io.mikyu.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mikyu.transport.Endpoint;
import java.net.URI;
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
