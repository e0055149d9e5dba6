package io.mikyu.jms.security;

import jakarta.jms.JMSSecurityException;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Who may connect, read from a users file in properties form: {@code name=password}, or
 * {@code name={sha256}<hex of SHA-256(password)>} so the file need not hold the password itself.
 */
public final class UserStore {

    private static final String SHA256 = "{sha256}";

    private final Map<String, String> users;
    private final boolean allowAnonymous;

    private UserStore(Map<String, String> users, boolean allowAnonymous) {
        this.users = users;
        this.allowAnonymous = allowAnonymous;
    }

    /** Authentication off: everyone connects. */
    public static UserStore open() {
        return new UserStore(null, true);
    }

    public static UserStore load(Path file, boolean allowAnonymous) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the users file " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> users = new TreeMap<>();
        p.stringPropertyNames().forEach(n -> users.put(n, p.getProperty(n)));
        return new UserStore(users, allowAnonymous);
    }

    public boolean enabled() {
        return users != null;
    }

    /** @throws JMSSecurityException if the credentials do not match a user */
    public void authenticate(String user, String password) throws JMSSecurityException {
        if (users == null) {
            return;
        }
        if (user == null && password == null) {
            if (allowAnonymous) {
                return;
            }
            throw new JMSSecurityException("authentication is on: connect with a user name and password");
        }
        String stored = user == null ? null : users.get(user);
        if (stored == null || password == null || !matches(stored, password)) {
            throw new JMSSecurityException("wrong user name or password for user '" + user + "'");
        }
    }

    private static boolean matches(String stored, String password) {
        byte[] expected;
        byte[] given;
        if (stored.startsWith(SHA256)) {
            expected = HexFormat.of().parseHex(stored.substring(SHA256.length()).trim().toLowerCase());
            given = sha256(password);
        } else {
            expected = stored.getBytes(StandardCharsets.UTF_8);
            given = password.getBytes(StandardCharsets.UTF_8);
        }
        return MessageDigest.isEqual(expected, given);
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
