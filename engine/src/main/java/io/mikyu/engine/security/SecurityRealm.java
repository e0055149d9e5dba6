package io.mikyu.engine.security;

import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.config.MikyuConfig;

import javax.security.auth.x500.X500Principal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Users, their hashed passwords and roles, and what each role may do, from the configuration:
 *
 * <pre>
 *   users.alice.password = $pbkdf2-sha256$i=600000$…$…     # mikyu passwd prints this
 *   users.alice.roles    = app, ops
 *   users.billing.certificate = CN=billing, O=Example      # a TLS client certificate's subject: this user
 *   users.billing.roles  = app
 *   roles.app.produce    = orders, events.*                # queue-name patterns, * = any characters
 *   roles.app.consume    = orders, replies.*
 *   roles.ops.manage     = *
 *   roles.app.clientIds  = billing, billing-*               # JMS client IDs on a broker, besides the user's name
 *   security.allowAnonymous = false                        # true: no credentials = role 'anonymous'
 * </pre>
 *
 * A user has a password, a certificate subject, or both. A broker requiring client certificates
 * ({@code tls.clientAuth}) takes a connection whose verified certificate's subject (an X.500 distinguished name,
 * compared as such: case and spacing of the name do not matter) is a user's {@code certificate} as that user,
 * unless its hello brings a password, which is then checked as usual.
 *
 * <p>Security is on as soon as one user is defined; without users everyone may do everything (the daemon then
 * says so when it starts). The same keys serve the daemon and an embedded engine ({@code vm://…?users=FILE} or
 * {@code config=FILE}), so one file can be used for both.
 */
public final class SecurityRealm {

    public static final String ANONYMOUS = "anonymous";

    /** The role key of the JMS client IDs a role's users may hold: {@code roles.<role>.clientIds}. */
    public static final String CLIENT_IDS = "clientIds";

    private static final SecurityRealm OPEN = new SecurityRealm(Map.of(), Map.of(), Map.of(), Map.of(), false);

    /** A user: its password hash ({@code null}: certificate only) and roles. */
    private record User(String passwordHash, Set<String> roles) {
    }

    private final Map<String, User> users;
    /** Users by the subject of their client certificate. */
    private final Map<X500Principal, String> certificateUsers;
    private final Map<String, Map<Permission, List<Pattern>>> roles;
    /** Client-ID patterns by role ({@code roles.<role>.clientIds}). */
    private final Map<String, List<Pattern>> clientIds;
    private final boolean allowAnonymous;

    private SecurityRealm(Map<String, User> users, Map<X500Principal, String> certificateUsers,
                          Map<String, Map<Permission, List<Pattern>>> roles, Map<String, List<Pattern>> clientIds,
                          boolean allowAnonymous) {
        this.users = users;
        this.certificateUsers = certificateUsers;
        this.roles = roles;
        this.clientIds = clientIds;
        this.allowAnonymous = allowAnonymous;
    }

    /** Security off: every connection is let in and may do everything. */
    public static SecurityRealm open() {
        return OPEN;
    }

    /** The realm of a configuration's {@code users.*}, {@code roles.*} and {@code security.allowAnonymous}. */
    public static SecurityRealm from(MikyuConfig config) {
        Map<String, String> userKeys = config.withPrefix("users.");
        Map<String, String> roleKeys = config.withPrefix("roles.");
        boolean anonymous = config.bool(MikyuConfig.Key.ALLOW_ANONYMOUS);
        if (userKeys.isEmpty()) {
            return OPEN;
        }
        Map<String, String> passwords = new TreeMap<>();
        Map<String, Set<String>> userRoles = new TreeMap<>();
        Map<X500Principal, String> subjects = new HashMap<>();
        Set<String> certified = new LinkedHashSet<>();
        for (Map.Entry<String, String> e : userKeys.entrySet()) {
            String rest = e.getKey().substring("users.".length());
            int dot = rest.lastIndexOf('.');
            String user = dot < 0 ? "" : rest.substring(0, dot);
            String what = dot < 0 ? rest : rest.substring(dot + 1);
            if (user.isEmpty() || !(what.equals("password") || what.equals("roles")
                    || what.equals("certificate"))) {
                throw new IllegalArgumentException("configuration key '" + e.getKey() + "' is not"
                        + " users.<name>.password, users.<name>.roles nor users.<name>.certificate");
            }
            if (what.equals("certificate")) {
                X500Principal subject;
                try {
                    subject = new X500Principal(e.getValue().trim());
                } catch (IllegalArgumentException bad) {
                    throw new IllegalArgumentException(e.getKey() + " = '" + e.getValue() + "' is not a certificate"
                            + " subject (an X.500 name such as CN=billing, O=Example): " + bad.getMessage());
                }
                String other = subjects.put(subject, user);
                if (other != null && !other.equals(user)) {
                    throw new IllegalArgumentException("users '" + other + "' and '" + user + "' name the same"
                            + " certificate subject " + subject.getName());
                }
                certified.add(user);
            } else if (what.equals("password")) {
                if (!PasswordHash.isHashed(e.getValue())) {
                    throw new IllegalArgumentException("the password of user '" + user + "' is not stored hashed;"
                            + " put what 'mikyu passwd' prints in " + e.getKey());
                }
                passwords.put(user, e.getValue());
            } else {
                userRoles.put(user, list(e.getValue()));
            }
        }
        Map<String, Map<Permission, List<Pattern>>> grants = new TreeMap<>();
        Map<String, List<Pattern>> clientIdGrants = new TreeMap<>();
        for (Map.Entry<String, String> e : roleKeys.entrySet()) {
            String rest = e.getKey().substring("roles.".length());
            int dot = rest.lastIndexOf('.');
            if (dot > 0 && rest.substring(dot + 1).equals(CLIENT_IDS)) {
                List<Pattern> patterns = new ArrayList<>();
                for (String glob : list(e.getValue())) {
                    patterns.add(Principal.glob(glob));
                }
                clientIdGrants.put(rest.substring(0, dot), List.copyOf(patterns));
                continue;
            }
            Permission permission = null;
            if (dot > 0) {
                for (Permission p : Permission.values()) {
                    if (p.key().equals(rest.substring(dot + 1))) {
                        permission = p;
                    }
                }
            }
            if (permission == null) {
                throw new IllegalArgumentException("configuration key '" + e.getKey() + "' is not"
                        + " roles.<role>.produce, roles.<role>.consume, roles.<role>.manage nor roles.<role>."
                        + CLIENT_IDS);
            }
            List<Pattern> patterns = new ArrayList<>();
            for (String glob : list(e.getValue())) {
                patterns.add(Principal.glob(glob));
            }
            grants.computeIfAbsent(rest.substring(0, dot), r -> new EnumMap<>(Permission.class))
                    .put(permission, List.copyOf(patterns));
        }
        Map<String, User> users = new TreeMap<>();
        for (String user : userRoles.keySet()) {
            if (!passwords.containsKey(user) && !certified.contains(user)) {
                throw new IllegalArgumentException("user '" + user + "' has roles but neither users." + user
                        + ".password nor users." + user + ".certificate");
            }
        }
        passwords.forEach((user, hash) -> users.put(user, new User(hash, userRoles.getOrDefault(user, Set.of()))));
        for (String user : certified) {
            users.putIfAbsent(user, new User(null, userRoles.getOrDefault(user, Set.of())));
        }
        return new SecurityRealm(Map.copyOf(users), Map.copyOf(subjects), Map.copyOf(grants),
                Map.copyOf(clientIdGrants), anonymous);
    }

    private static Set<String> list(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String s : text.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return out;
    }

    /** Whether credentials are checked. */
    public boolean enabled() {
        return !users.isEmpty();
    }

    public boolean allowsAnonymous() {
        return allowAnonymous;
    }

    /**
     * Checks credentials. Without users every caller is {@link Principal#UNRESTRICTED}, with or without
     * credentials; with users, no credentials at all means user {@value #ANONYMOUS} if allowed.
     *
     * @throws AuthenticationException on an unknown user, a wrong password, or missing credentials
     */
    public Principal authenticate(String user, char[] password) {
        if (!enabled()) {
            return Principal.UNRESTRICTED;
        }
        if (user == null && password == null) {
            if (allowAnonymous) {
                return principal(ANONYMOUS, Set.of(ANONYMOUS));
            }
            throw new AuthenticationException("authentication is on: connect with a user name and password");
        }
        User u = user == null ? null : users.get(user);
        // An unknown user costs the same as a wrong password, so timing does not tell which names exist.
        boolean ok = u != null && u.passwordHash != null && password != null
                ? PasswordHash.verify(u.passwordHash, password) : dummyVerify(password);
        if (!ok || u == null) {
            throw new AuthenticationException("wrong user name or password for user '" + user + "'");
        }
        return principal(user, u.roles);
    }

    /**
     * The user a verified client certificate's subject names ({@code users.<name>.certificate}), or {@code null} if
     * none does, or if {@code user} (the hello's, may be null) names someone else. Without users: unrestricted.
     */
    public Principal authenticateCertificate(X500Principal subject, String user) {
        if (!enabled()) {
            return Principal.UNRESTRICTED;
        }
        String name = subject == null ? null : certificateUsers.get(subject);
        if (name == null || (user != null && !user.equals(name))) {
            return null;
        }
        return principal(name, users.get(name).roles);
    }

    /** A hash at the default cost, made when first needed, to check an unknown user's password against. */
    private static final class Dummy {
        static final String HASH = PasswordHash.hash("not a password".toCharArray());
    }

    private static boolean dummyVerify(char[] password) {
        PasswordHash.verify(Dummy.HASH, password == null ? new char[0] : password);
        return false;
    }

    private Principal principal(String name, Set<String> roleNames) {
        Map<Permission, List<Pattern>> grants = new EnumMap<>(Permission.class);
        List<Pattern> ids = new ArrayList<>();
        for (String role : roleNames) {
            roles.getOrDefault(role, Map.of()).forEach((p, patterns) ->
                    grants.computeIfAbsent(p, k -> new ArrayList<>()).addAll(patterns));
            ids.addAll(clientIds.getOrDefault(role, List.of()));
        }
        return new Principal(name, roleNames, grants, ids);
    }
}
