package io.mikyu.jca.outbound;

import jakarta.resource.spi.ConnectionRequestInfo;

import java.util.Objects;

/** What an application asked {@code createConnection(user, password)} for: application-managed sign-on. */
public final class MikyuConnectionRequestInfo implements ConnectionRequestInfo {

    private final String user;
    private final String password;

    public MikyuConnectionRequestInfo(String user, String password) {
        this.user = user;
        this.password = password;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MikyuConnectionRequestInfo r && Objects.equals(r.user, user)
                && Objects.equals(r.password, password);
    }

    @Override
    public int hashCode() {
        return Objects.hash(user, password);
    }

    @Override
    public String toString() {
        return "MikyuConnectionRequestInfo[" + (user == null ? "(default user)" : user) + "]";
    }
}
