package io.mikyu.broker.server;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.security.Principal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Who may take which claim (docs/protocol.md, "Claims"). Claims under {@code jms/} are the JMS provider's: a
 * connection's client ID ({@code jms/clientID/<id>}, exclusive) and a subscription's consumers
 * ({@code jms/subscription/<group>}). Taken by the wrong user, such a claim locks the owner out (its
 * {@code setClientID} or durable subscriber fails for as long as the claim is held), so a user with restricted
 * rights may take only those the provider itself would take for a client ID the user may use
 * ({@link Principal#mayUseClientId}):
 * <ul>
 *   <li>{@code jms/clientID/<id>}, exclusively;</li>
 *   <li>{@code jms/subscription/d.<clientID>.<name>} (an unshared durable subscription), exclusively;</li>
 *   <li>{@code jms/subscription/sd.[<clientID>.]<name>} and {@code sn.…} (shared subscriptions), shared only —
 *   an exclusive claim there would shut the other consumers out; with a client ID, one the user may use.</li>
 * </ul>
 * Any other name under {@code jms/} is refused; names outside it are the application's own and free.
 *
 * <p>Subscription group names are the provider's: every character but {@code [A-Za-z0-9-]} written as {@code _XX}
 * per UTF-8 byte, so the dots that separate their parts are unambiguous.
 */
final class ClaimRules {

    static final String JMS = "jms/";
    static final String CLIENT_ID = "jms/clientID/";
    static final String SUBSCRIPTION = "jms/subscription/";
    /** A temporary destination's, {@code jms/temporary/tmp.<…>}: deleted when its connection ends. */
    static final String TEMPORARY = "jms/temporary/";
    private static final String TEMPORARY_NAME = "tmp.";

    private ClaimRules() {
    }

    /** @throws AccessDeniedException if the principal may not take {@code name} in {@code mode} */
    static void check(String name, ClaimMode mode, Principal principal) {
        if (name.startsWith(TEMPORARY)) {
            checkTemporary(name, mode, principal);
            return;
        }
        if (principal.unrestricted() || !name.startsWith(JMS)) {
            return;
        }
        if (name.startsWith(CLIENT_ID)) {
            requireMode(name, mode, ClaimMode.EXCLUSIVE, principal);
            principal.checkClientId(name.substring(CLIENT_ID.length()));
            return;
        }
        if (name.startsWith(SUBSCRIPTION)) {
            String[] parts = name.substring(SUBSCRIPTION.length()).split("\\.", -1);
            switch (parts[0]) {
                case "d" -> {
                    requireMode(name, mode, ClaimMode.EXCLUSIVE, principal);
                    if (parts.length != 3) {
                        throw denied(name, principal);
                    }
                    principal.checkClientId(decode(parts[1]));
                    return;
                }
                case "sd", "sn" -> {
                    requireMode(name, mode, ClaimMode.SHARED, principal);
                    if (parts.length == 3) {
                        principal.checkClientId(decode(parts[1]));
                    } else if (parts.length != 2) {
                        throw denied(name, principal);
                    }
                    return;
                }
                default -> throw denied(name, principal);
            }
        }
        throw denied(name, principal);
    }

    /**
     * The broker deletes a temporary destination's queue once its claim is free (see {@link AbandonedJmsState}): so
     * only temporary names, exclusively, by a user who could delete that queue anyway (manage).
     */
    private static void checkTemporary(String name, ClaimMode mode, Principal principal) {
        String queue = name.substring(TEMPORARY.length());
        if (!queue.startsWith(TEMPORARY_NAME) || queue.length() == TEMPORARY_NAME.length()) {
            throw new IllegalArgumentException("'" + name + "' names no temporary destination: its queue's name must"
                    + " start with '" + TEMPORARY_NAME + "'");
        }
        requireMode(name, mode, ClaimMode.EXCLUSIVE, principal);
        principal.check(io.mikyu.engine.security.Permission.MANAGE, queue);
    }

    private static void requireMode(String name, ClaimMode mode, ClaimMode expected, Principal principal) {
        if (mode != expected) {
            throw new AccessDeniedException("user '" + principal.name() + "' may claim '" + name + "' only "
                    + expected.name().toLowerCase(java.util.Locale.ROOT) + "ly");
        }
    }

    private static AccessDeniedException denied(String name, Principal principal) {
        return new AccessDeniedException("user '" + principal.name() + "' may not claim '" + name
                + "': names under jms/ are the JMS provider's client IDs and subscriptions");
    }

    /** The provider's encoding undone: {@code _XX} is one UTF-8 byte. A malformed escape is kept as it is. */
    static String decode(String encoded) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '_' && i + 2 < encoded.length() && hex(encoded.charAt(i + 1)) >= 0
                    && hex(encoded.charAt(i + 2)) >= 0) {
                out.write(hex(encoded.charAt(i + 1)) << 4 | hex(encoded.charAt(i + 2)));
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
