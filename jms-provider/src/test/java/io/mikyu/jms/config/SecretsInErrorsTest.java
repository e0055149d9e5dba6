package io.mikyu.jms.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mikyu.jms.MikyuConnectionFactory;
import org.junit.jupiter.api.Test;

/** A mistake in a URL that carries a password is reported without the password. */
class SecretsInErrorsTest {

    private static final String PASSWORD = "correct-horse-battery";

    @Test
    void anUnknownOptionIsNamedButThePasswordBesideItIsNot() {
        assertThatThrownBy(() -> ProviderOptions.parse("tcp://h:1?user=alice&password=" + PASSWORD + "&prefech=4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option 'prefech'")
                .hasMessageContaining("password=****")
                .hasMessageNotContaining(PASSWORD);
    }

    @Test
    void aBadValueIsReportedWithoutThePassword() {
        assertThatThrownBy(() -> ProviderOptions.parse("tcp://h:1?password=" + PASSWORD + "&durability=often"))
                .hasMessageContaining("durability must be sync or async")
                .hasMessageNotContaining(PASSWORD);
        assertThatThrownBy(() -> ProviderOptions.parse("tcp://h:1?password=" + PASSWORD + "&prefetch=many"))
                .hasMessageContaining("prefetch must be a whole number")
                .hasMessageNotContaining(PASSWORD);
    }

    @Test
    void aFactoryPrintsItsUrlWithoutThePassword() {
        assertThat(new MikyuConnectionFactory("tcp://h:1?user=alice&password=" + PASSWORD).toString())
                .contains("password=****").doesNotContain(PASSWORD);
    }
}
