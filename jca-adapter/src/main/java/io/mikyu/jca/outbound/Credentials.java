package io.mikyu.jca.outbound;

import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.security.PasswordCredential;

import javax.security.auth.Subject;
import java.util.Objects;
import java.util.Set;

/**
 * Who a physical connection signs on as. Container-managed sign-on: the {@link Subject}'s
 * {@link PasswordCredential} for this connection factory; application-managed: the user and password the
 * application gave {@code createConnection(user, password)} (a {@link MikyuConnectionRequestInfo}); else the
 * configured {@code user} and {@code password}. A null user means none.
 */
record Credentials(String user, String password) {

    static Credentials of(ManagedConnectionFactory mcf, Subject subject, ConnectionRequestInfo info,
                          String defaultUser, String defaultPassword) {
        if (subject != null) {
            Set<PasswordCredential> credentials = subject.getPrivateCredentials(PasswordCredential.class);
            for (PasswordCredential c : credentials) {
                if (c.getManagedConnectionFactory() == null || mcf.equals(c.getManagedConnectionFactory())) {
                    return new Credentials(c.getUserName(), c.getPassword() == null ? null
                            : new String(c.getPassword()));
                }
            }
        }
        if (info instanceof MikyuConnectionRequestInfo r && (r.user() != null || r.password() != null)) {
            return new Credentials(r.user(), r.password());
        }
        return new Credentials(defaultUser, defaultPassword);
    }

    boolean sameAs(Credentials other) {
        return Objects.equals(user, other.user) && Objects.equals(password, other.password);
    }

    @Override
    public String toString() {
        return "Credentials[" + (user == null ? "(none)" : user) + "]";
    }
}
