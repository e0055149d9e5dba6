package io.mikyu.jms.classic;

import java.nio.charset.StandardCharsets;

/**
 * Engine group names of topic subscriptions. Engine names allow {@code [A-Za-z0-9._-]}; JMS names allow anything,
 * so other characters (and {@code _} and {@code .}, which the scheme uses) are written {@code _XX} per UTF-8 byte.
 * <ul>
 *   <li>durable {@code (clientID, name)}: {@code d.<clientID>.<name>}</li>
 *   <li>shared durable {@code name}: {@code sd.<name>}, or {@code sd.<clientID>.<name>} with a client ID</li>
 *   <li>shared non-durable: {@code sn.<name>} / {@code sn.<clientID>.<name>}</li>
 * </ul>
 */
final class SubscriptionNames {

    static final String DURABLE = "d.";
    static final String SHARED_DURABLE = "sd.";
    static final String SHARED = "sn.";

    private SubscriptionNames() {
    }

    static String durable(String clientId, String name) {
        return DURABLE + encode(clientId) + "." + encode(name);
    }

    static String sharedDurable(String clientId, String name) {
        return SHARED_DURABLE + (clientId == null ? "" : encode(clientId) + ".") + encode(name);
    }

    static String shared(String clientId, String name) {
        return SHARED + (clientId == null ? "" : encode(clientId) + ".") + encode(name);
    }

    static String encode(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (x & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-') {
                b.append(c);
            } else {
                b.append('_').append(Character.forDigit((c >> 4) & 0xf, 16)).append(Character.forDigit(c & 0xf, 16));
            }
        }
        return b.toString();
    }
}
