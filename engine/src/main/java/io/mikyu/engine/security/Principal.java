package io.mikyu.engine.security;

import io.mikyu.engine.AccessDeniedException;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Who a connection authenticated as, and what they may do: for each {@link Permission}, the queue-name patterns the
 * user's roles grant it on. A pattern is a queue name in which {@code *} stands for any run of characters
 * ({@code orders}, {@code orders.*}, {@code *}); a dead-letter queue is a queue of its own ({@code jobs/dlq},
 * matched by {@code jobs*} or {@code jobs/dlq}). Besides queues, the client IDs the user may hold on a broker
 * ({@link #mayUseClientId}): its own name, and those its roles' {@code clientIds} patterns match.
 */
public final class Principal {

    /** Security off: may do everything. */
    public static final Principal UNRESTRICTED = new Principal(null, Set.of(), null, List.of());

    private final String name;
    private final Set<String> roles;
    private final Map<Permission, List<Pattern>> grants;
    private final List<Pattern> clientIds;

    Principal(String name, Set<String> roles, Map<Permission, List<Pattern>> grants, List<Pattern> clientIds) {
        this.name = name;
        this.roles = Set.copyOf(roles);
        this.grants = grants == null ? null : new EnumMap<>(grants);
        this.clientIds = List.copyOf(clientIds);
    }

    /** The user's name; {@code null} when security is off. */
    public String name() {
        return name;
    }

    public Set<String> roles() {
        return roles;
    }

    public boolean unrestricted() {
        return grants == null;
    }

    public boolean may(Permission permission, String queue) {
        if (grants == null) {
            return true;
        }
        for (Pattern p : grants.getOrDefault(permission, List.of())) {
            if (p.matcher(queue).matches()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the user may hold the JMS client ID {@code id} on a broker (and the durable subscriptions made under
     * it): its own user name, or one its roles' {@code clientIds} patterns match. Without this, any user could take
     * another application's client ID first and lock it out.
     */
    public boolean mayUseClientId(String id) {
        if (grants == null || id.equals(name)) {
            return true;
        }
        for (Pattern p : clientIds) {
            if (p.matcher(id).matches()) {
                return true;
            }
        }
        return false;
    }

    /** @throws AccessDeniedException naming the user and the client ID, unless {@link #mayUseClientId} */
    public void checkClientId(String id) {
        if (!mayUseClientId(id)) {
            throw new AccessDeniedException("user '" + name + "' may not use client ID '" + id + "' (a user may use"
                    + " its own name and those its roles' clientIds patterns match)");
        }
    }

    /** Whether any permission at all is granted on {@code queue} (it may look it up, list it, read its stats). */
    public boolean mayAny(String queue) {
        for (Permission p : Permission.values()) {
            if (may(p, queue)) {
                return true;
            }
        }
        return false;
    }

    /** @throws AccessDeniedException naming the user, permission and queue, unless granted */
    public void check(Permission permission, String queue) {
        if (!may(permission, queue)) {
            throw new AccessDeniedException("user '" + name + "' lacks the " + permission.key()
                    + " permission on queue '" + queue + "'");
        }
    }

    /** @throws AccessDeniedException unless some permission is granted on {@code queue} */
    public void checkAny(String queue) {
        if (!mayAny(queue)) {
            throw new AccessDeniedException("user '" + name + "' has no permission on queue '" + queue + "'");
        }
    }

    static Pattern glob(String pattern) {
        String[] parts = pattern.split("\\*", -1);
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                re.append(".*");
            }
            if (!parts[i].isEmpty()) {
                re.append(Pattern.quote(parts[i]));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    @Override
    public String toString() {
        return name == null ? "(security off)" : name + " " + roles;
    }
}
