package io.mikyu.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** What mikyu prints never shows a password: option values, user information, configuration keys. */
class SecretsTest {

    @Test
    void everyOptionWhoseNameEndsInPasswordIsMasked() {
        assertThat(Secrets.redact("tcp://h:7420?user=alice&password=s3cret&clientName=x"))
                .isEqualTo("tcp://h:7420?user=alice&password=****&clientName=x");
        assertThat(Secrets.redact("tls://h:1?tls.keystorePassword=k1&tls.truststorePassword=k2"))
                .isEqualTo("tls://h:1?tls.keystorePassword=****&tls.truststorePassword=****");
        assertThat(Secrets.redact("vm:///data?PASSWORD=a%26b#frag")).isEqualTo("vm:///data?PASSWORD=****#frag");
    }

    @Test
    void theUserInformationsPasswordIsMaskedAndTheRestKept() {
        assertThat(Secrets.redact(URI.create("tcp://alice:s3cret@broker:7420?prefetch=4")))
                .isEqualTo("tcp://alice:****@broker:7420?prefetch=4");
        assertThat(Secrets.redact("tcp://alice@broker:7420")).isEqualTo("tcp://alice@broker:7420");
    }

    @Test
    void textWithoutSecretsIsUnchanged() {
        String url = "tcp://127.0.0.1:7420?durability=sync&passwordless=true&user=bob";
        assertThat(Secrets.redact(url)).isEqualTo(url);
        assertThat(Secrets.redact((String) null)).isNull();
    }

    @Test
    void configurationKeysThatHoldSecretsPrintMasked() {
        assertThat(Secrets.printable("users.app.password", "$pbkdf2-sha256$i=1$a$b")).isEqualTo(Secrets.MASK);
        assertThat(Secrets.printable("tls.keyPassword", "pw")).isEqualTo(Secrets.MASK);
        assertThat(Secrets.printable("tls.keyPassword", "")).isEmpty();
        assertThat(Secrets.printable("dataDir", "/var/lib/mikyu")).isEqualTo("/var/lib/mikyu");
    }
}
