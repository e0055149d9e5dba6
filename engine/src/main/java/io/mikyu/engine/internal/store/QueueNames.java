package io.mikyu.engine.internal.store;

import io.mikyu.engine.InvalidQueueNameException;

import java.util.regex.Pattern;

/**
 * What a queue or consumer-group name may be. A queue name becomes a directory name, so the rules keep it a
 * single, portable path element: 1 to 200 characters of {@code [A-Za-z0-9._-]}, starting with a letter or digit
 * (so never {@code .}, {@code ..}, or a hidden file), and not one of the names the store keeps for itself.
 */
public final class QueueNames {

    public static final int MAX_LENGTH = 200;
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final java.util.Set<String> RESERVED = java.util.Set.of("quarantine");

    private QueueNames() {
    }

    public static String check(String what, String name) {
        if (name == null || name.isEmpty()) {
            throw new InvalidQueueNameException(what + " name is empty");
        }
        if (name.length() > MAX_LENGTH) {
            throw new InvalidQueueNameException(what + " name is " + name.length() + " characters, over the limit of "
                    + MAX_LENGTH);
        }
        if (!VALID.matcher(name).matches()) {
            throw new InvalidQueueNameException(what + " name '" + printable(name) + "' is invalid: use letters, "
                    + "digits, '.', '_' and '-', starting with a letter or digit");
        }
        if (RESERVED.contains(name)) {
            throw new InvalidQueueNameException(what + " name '" + name + "' is reserved");
        }
        return name;
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }
}
