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
 * matched by {@code jobs*} or {@code jobs/dlq}).
 */
public final class Principal {

    /** Security off: may do everything. */
    public static final Principal UNRESTRICTED = new Principal(null, Set.of(), null);

    private final String name;
    private final Set<String> roles;
    private final Map<Permission, List<Pattern>> grants;

    Principal(String name, Set<String> roles, Map<Permission, List<Pattern>> grants) {
        this.name = name;
        this.roles = Set.copyOf(roles);
        this.grants = grants == null ? null : new EnumMap<>(grants);
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
