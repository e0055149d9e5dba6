package io.mikyu.engine.security;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.config.MikyuConfig;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecurityRealmTest {

    /** Few iterations keep the test fast; the format and check are the same. */
    static final String APP_HASH = PasswordHash.hash("app-secret".toCharArray(), 1_000);

    static SecurityRealm realm(Map<String, String> extra) {
        Map<String, String> keys = new LinkedHashMap<>(Map.of(
                "users.app.password", APP_HASH,
                "users.app.roles", "producer, reader",
                "roles.producer.produce", "orders, events.*",
                "roles.reader.consume", "orders",
                "roles.admin.manage", "*"));
        keys.putAll(extra);
        return SecurityRealm.from(MikyuConfig.load(null, keys, "test"));
    }

    @Test
    void shouldStorePasswordsSaltedSoEqualPasswordsHashDifferently() {
        String a = PasswordHash.hash("pw".toCharArray(), 1_000);
        String b = PasswordHash.hash("pw".toCharArray(), 1_000);
        assertThat(a).startsWith("$pbkdf2-sha256$i=1000$").isNotEqualTo(b);
        assertThat(PasswordHash.verify(a, "pw".toCharArray())).isTrue();
        assertThat(PasswordHash.verify(a, "pW".toCharArray())).isFalse();
        assertThat(PasswordHash.verify("{sha256}" + "9d7d3a5e5ae2c1e3f3a9e1d94b0f1c3c0e0b2f6d2c8a7a3c7f1b3e6a7c1d2e3f",
                "x".toCharArray())).isFalse();
    }

    @Test
    void shouldLetTheRightPasswordIn() {
        Principal app = realm(Map.of()).authenticate("app", "app-secret".toCharArray());
        assertThat(app.name()).isEqualTo("app");
        assertThat(app.roles()).containsExactlyInAnyOrder("producer", "reader");
    }

    @Test
    void shouldRefuseAWrongPasswordAnUnknownUserAndNoCredentials() {
        SecurityRealm realm = realm(Map.of());
        assertThatThrownBy(() -> realm.authenticate("app", "wrong".toCharArray()))
                .isInstanceOf(AuthenticationException.class).hasMessageContaining("wrong user name or password");
        assertThatThrownBy(() -> realm.authenticate("nobody", "app-secret".toCharArray()))
                .isInstanceOf(AuthenticationException.class).hasMessageContaining("wrong user name or password");
        assertThatThrownBy(() -> realm.authenticate(null, null))
                .isInstanceOf(AuthenticationException.class).hasMessageContaining("authentication is on");
    }

    @Test
    void shouldGrantPermissionsByRoleWithWildcards() {
        Principal app = realm(Map.of()).authenticate("app", "app-secret".toCharArray());
        assertThat(app.may(Permission.PRODUCE, "orders")).isTrue();
        assertThat(app.may(Permission.PRODUCE, "events.eu")).isTrue();
        assertThat(app.may(Permission.PRODUCE, "events")).isFalse();
        assertThat(app.may(Permission.CONSUME, "orders")).isTrue();
        assertThat(app.may(Permission.CONSUME, "events.eu")).isFalse();
        assertThat(app.may(Permission.MANAGE, "orders")).isFalse();
        assertThatThrownBy(() -> app.check(Permission.MANAGE, "orders"))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessage("user 'app' lacks the manage permission on queue 'orders'");
    }

    @Test
    void shouldLetAnonymousInOnlyWhenAllowedWithTheAnonymousRole() {
        Principal anonymous = realm(Map.of("security.allowAnonymous", "true", "roles.anonymous.consume", "public.*"))
                .authenticate(null, null);
        assertThat(anonymous.name()).isEqualTo("anonymous");
        assertThat(anonymous.may(Permission.CONSUME, "public.news")).isTrue();
        assertThat(anonymous.may(Permission.PRODUCE, "public.news")).isFalse();
    }

    @Test
    void shouldBeOpenWithoutUsers() {
        SecurityRealm realm = SecurityRealm.from(MikyuConfig.load(null, Map.of(), "test"));
        assertThat(realm.enabled()).isFalse();
        assertThat(realm.authenticate(null, null).may(Permission.MANAGE, "anything")).isTrue();
    }

    @Test
    void shouldRefuseAPasswordStoredInPlainText() {
        assertThatThrownBy(() -> realm(Map.of("users.bob.password", "hunter2")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mikyu passwd");
    }

    @Test
    void shouldMapACertificateSubjectToItsUserWhateverTheNamesSpelling() {
        SecurityRealm r = realm(Map.of("users.billing.certificate", "CN=billing, O=Example",
                "users.billing.roles", "producer"));
        Principal who = r.authenticateCertificate(new javax.security.auth.x500.X500Principal("cn=billing,o=example"),
                null);
        assertThat(who.name()).isEqualTo("billing");
        assertThat(who.may(Permission.PRODUCE, "orders")).isTrue();
        assertThat(who.may(Permission.CONSUME, "orders")).isFalse();
        assertThat(r.authenticateCertificate(new javax.security.auth.x500.X500Principal("CN=billing, O=Example"),
                "app")).as("the hello names another user").isNull();
        assertThat(r.authenticateCertificate(new javax.security.auth.x500.X500Principal("CN=stranger"), null))
                .isNull();
        assertThatThrownBy(() -> r.authenticate("billing", "anything".toCharArray()))
                .as("a certificate-only user has no password").isInstanceOf(AuthenticationException.class);
    }

    @Test
    void shouldRefuseACertificateThatIsNotADistinguishedNameOrNamesTwoUsers() {
        assertThatThrownBy(() -> realm(Map.of("users.x.certificate", "not a name")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("users.x.certificate");
        assertThatThrownBy(() -> realm(Map.of("users.x.certificate", "CN=app", "users.y.certificate", "cn=APP")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same certificate subject");
    }
}
