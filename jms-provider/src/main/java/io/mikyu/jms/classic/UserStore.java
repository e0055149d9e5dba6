package io.mikyu.jms.classic;

import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.security.Principal;
import io.mikyu.engine.security.SecurityRealm;
import jakarta.jms.JMSSecurityException;

import java.nio.file.Path;
import java.util.Map;

/**
 * Who may connect to an embedded engine, and what they may do: the {@link SecurityRealm} of mikyu's config format
 * ({@code users.<name>.password} hashed as {@code mikyu passwd} prints it, {@code users.<name>.roles},
 * {@code roles.<role>.produce|consume|manage}), the same one a broker daemon reads.
 */
final class UserStore {

    private final SecurityRealm realm;

    private UserStore(SecurityRealm realm) {
        this.realm = realm;
    }

    /** Authentication off: everyone connects and may do everything. */
    static UserStore open() {
        return new UserStore(SecurityRealm.open());
    }

    static UserStore of(SecurityRealm realm) {
        return new UserStore(realm);
    }

    /** The users and roles of a file in the config format. */
    static UserStore load(Path file, boolean allowAnonymous) {
        return new UserStore(SecurityRealm.from(MikyuConfig.load(file,
                Map.of(MikyuConfig.Key.ALLOW_ANONYMOUS.key(), String.valueOf(allowAnonymous)), "URL")));
    }

    boolean enabled() {
        return realm.enabled();
    }

    /**
     * @return who connected ({@link Principal#UNRESTRICTED} when authentication is off)
     * @throws JMSSecurityException if the credentials do not match a user
     */
    Principal authenticate(String user, String password) throws JMSSecurityException {
        try {
            return realm.authenticate(user, password == null ? null : password.toCharArray());
        } catch (AuthenticationException e) {
            JMSSecurityException j = new JMSSecurityException(e.getMessage());
            j.initCause(e);
            j.setLinkedException(e);
            throw j;
        }
    }
}
