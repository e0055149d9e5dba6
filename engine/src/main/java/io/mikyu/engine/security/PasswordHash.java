package io.mikyu.engine.security;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Stored passwords: PBKDF2 with HMAC-SHA-256 (RFC 8018), a random 16-byte salt per password, written in the PHC
 * string format that passlib and others use:
 *
 * <pre>
 *   $pbkdf2-sha256$i=600000$&lt;salt, base64 without padding&gt;$&lt;32-byte hash, base64 without padding&gt;
 * </pre>
 *
 * 600,000 iterations is OWASP's figure for PBKDF2-HMAC-SHA256 (2023); checking one costs some 0.2–0.5 s of CPU,
 * paid once per connection, on a broker worker thread rather than an event loop. The count is part of the string, so
 * old entries keep working when the default rises. {@code {sha256}<hex>} (unsalted SHA-256, what the first users
 * files held) is still read, and discouraged: {@code mikyu passwd} prints the PBKDF2 form.
 */
public final class PasswordHash {

    public static final int DEFAULT_ITERATIONS = 600_000;
    private static final String PREFIX = "$pbkdf2-sha256$i=";
    private static final String LEGACY_SHA256 = "{sha256}";
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PasswordHash() {
    }

    /** The stored form of {@code password}, with a fresh salt and the default iteration count. */
    public static String hash(char[] password) {
        return hash(password, DEFAULT_ITERATIONS);
    }

    public static String hash(char[] password, int iterations) {
        if (iterations < 1_000) {
            throw new IllegalArgumentException("PBKDF2 needs at least 1000 iterations, not " + iterations);
        }
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        return PREFIX + iterations + "$" + b64.encodeToString(salt) + "$"
                + b64.encodeToString(pbkdf2(password, salt, iterations));
    }

    /** Whether {@code stored} is a form this class reads. */
    public static boolean isHashed(String stored) {
        return stored != null && (stored.startsWith(PREFIX) || stored.startsWith(LEGACY_SHA256));
    }

    /** Whether {@code password} matches the stored form; in time independent of where they differ. */
    public static boolean verify(String stored, char[] password) {
        if (stored.startsWith(LEGACY_SHA256)) {
            byte[] expected = HexFormat.of().parseHex(stored.substring(LEGACY_SHA256.length()).trim()
                    .toLowerCase(java.util.Locale.ROOT));
            try {
                byte[] given = MessageDigest.getInstance("SHA-256")
                        .digest(new String(password).getBytes(StandardCharsets.UTF_8));
                return MessageDigest.isEqual(expected, given);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("the JDK has no SHA-256", e);
            }
        }
        if (!stored.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a stored password (expected " + PREFIX + "…$…$…, as"
                    + " 'mikyu passwd' prints)");
        }
        String[] parts = stored.substring(PREFIX.length()).split("\\$");
        if (parts.length != 3) {
            throw new IllegalArgumentException("malformed stored password: expected " + PREFIX
                    + "<iterations>$<salt>$<hash>");
        }
        int iterations = Integer.parseInt(parts[0]);
        Base64.Decoder b64 = Base64.getDecoder();
        byte[] salt = b64.decode(parts[1]);
        byte[] expected = b64.decode(parts[2]);
        return MessageDigest.isEqual(expected, pbkdf2(password, salt, iterations));
    }

    private static byte[] pbkdf2(char[] password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no PBKDF2WithHmacSHA256", e);
        } finally {
            spec.clearPassword();
        }
    }
}
