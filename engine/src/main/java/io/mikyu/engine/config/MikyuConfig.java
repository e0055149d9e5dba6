package io.mikyu.engine.config;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Secrets;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * mikyu's one configuration surface: the same keys for the daemon, an embedded engine ({@code vm://} URLs), the
 * command line and the network client, each value taken from (weakest first)
 *
 * <ol>
 * <li>the built-in default,</li>
 * <li>the config file ({@code java.util.Properties} syntax: {@code key = value}, {@code #} comments), named by
 * {@code --config FILE}, a URL's {@code config=FILE}, the system property {@code mikyu.config} or the environment
 * variable {@code MIKYU_CONFIG},</li>
 * <li>a system property {@code -Dmikyu.<key>=value},</li>
 * <li>a URL parameter or command-line flag ({@code explicit}).</li>
 * </ol>
 *
 * <p>Keys are the engine's ({@link Key}), those of the other modules' {@link ConfigSection}s on the class path
 * (the broker's, for instance) and the dynamic {@code users.<name>.*} and {@code roles.<role>.*} of the security
 * realm. An unknown key in the file or among the explicit values is refused with the known ones listed, so
 * a typo never silently leaves a default in place. {@link #settings()} says, for every key, its value and where it
 * came from ({@code mikyu config} prints it).
 */
public final class MikyuConfig {

    /** The environment variable naming the config file when no flag, URL parameter or system property does. */
    public static final String ENV = "MIKYU_CONFIG";
    /** System properties {@code mikyu.<key>} override the file; {@code mikyu.config} names the file. */
    public static final String SYSTEM_PREFIX = "mikyu.";
    public static final String CONFIG_PROPERTY = "mikyu.config";

    /** Prefixes of keys whose names are made up by the user (users and roles). */
    private static final List<String> DYNAMIC = List.of("users.", "roles.");

    /** The engine's keys, and the client's it shares with the daemon; other modules add a {@link ConfigSection}. */
    public enum Key implements ConfigKey {
        DATA_DIR("dataDir", "", "data directory of the daemon and the CLI (default: $MIKYU_DATA_DIR, else"
                + " $XDG_DATA_HOME/mikyu); a vm:// URL names its own"),
        DURABILITY("durability", "async", "engine: durability of queues created without one (sync, async)"),
        FLUSH_INTERVAL("flushInterval", "200ms", "engine: fsync interval of asynchronously written data"),
        MAX_RECORD_BYTES("maxRecordBytes", "8MiB", "engine: largest record"),
        MAX_BATCH_BYTES("maxBatchBytes", "64MiB", "engine: largest batch"),
        MIN_FREE_DISK_BYTES("minFreeDiskBytes", "64MiB", "engine: appends fail fast below this much free disk"),
        CACHE_BYTES_PER_QUEUE("cacheBytesPerQueue", "32MiB", "engine: ring cache of recent batches per queue"),
        PACE_PRODUCERS_ABOVE("paceProducersAbove", "8192", "engine: above this many ready tasks, a task queue"
                + " whose consumers are taking tasks paces its producers to them (at most 50 ms a send); 0: off"),
        TASK_WINDOW("taskWindow", "32768", "engine: ready tasks a task queue keeps in memory; the rest of its"
                + " backlog stays in its log and is read back in order; 0: all in memory"),
        HOUSEKEEPING_INTERVAL("housekeepingInterval", "30s", "engine: how often retention and compaction run"),
        COMPACTION_KEY_MAP_BYTES("compactionKeyMapBytes", "16MiB", "engine: memory of compaction's key map (24"
                + " bytes a key, filled to 3/4); a log with more distinct keys compacts in several passes"),
        VERIFY_CHECKSUMS("verifyChecksumsOnRead", "true", "engine: CRC-check every batch read from disk"),
        CORRUPTION_POLICY("corruptionPolicy", "quarantine", "engine: damage found on open: quarantine or fail"),
        // many destinations
        MAX_OPEN_SEGMENT_FILES("maxOpenSegmentFiles", "1024", "engine: segment files kept open (idle ones beyond"
                + " it are closed, reopened on use); keep it well below the limit of open files (ulimit -n)"),

        TRANSIENT_MEMORY_LIMIT("transientMemoryLimit", "25%", "engine: most heap transient tasks (NON_PERSISTENT"
                + " queue messages) take, all queues: a size, or a percentage of the maximum heap; 0: none"),
        TRANSIENT_MEMORY_LIMIT_PER_QUEUE("transientMemoryLimitPerQueue", "0", "engine: the same for each task"
                + " queue: a size or a percentage of the maximum heap; 0: none"),
        TRANSIENT_MEMORY_POLICY("transientMemoryPolicy", "block", "engine: a transient enqueue over a limit:"
                + " block (wait up to transientMemoryBlockTimeout, then fail), fail, or spill (written as async)"),
        TRANSIENT_MEMORY_BLOCK_TIMEOUT("transientMemoryBlockTimeout", "30s", "engine: how long a blocked"
                + " transient enqueue waits for memory before it fails"),
        TLS_CERT("tls.cert", "", "TLS: certificate chain (PEM) of this side; with tls.key"),
        TLS_KEY("tls.key", "", "TLS: private key (PEM, PKCS#8) of tls.cert"),
        TLS_KEY_PASSWORD("tls.keyPassword", "", "TLS: password of an encrypted tls.key"),
        TLS_KEYSTORE("tls.keystore", "", "TLS: key store (PKCS12 or JKS) instead of tls.cert and tls.key"),
        TLS_KEYSTORE_PASSWORD("tls.keystorePassword", "", "TLS: password of tls.keystore"),
        TLS_CA("tls.ca", "", "TLS: CA certificates (PEM) to trust: the broker's (client), clients' (daemon)"),
        TLS_TRUSTSTORE("tls.truststore", "", "TLS: trust store (PKCS12 or JKS) instead of tls.ca"),
        TLS_TRUSTSTORE_PASSWORD("tls.truststorePassword", "", "TLS: password of tls.truststore"),
        TLS_CLIENT_AUTH("tls.clientAuth", "none", "daemon: client certificates: none, optional or require"),
        ALLOW_ANONYMOUS("security.allowAnonymous", "false", "with users: connections without credentials are"
                + " let in, with the permissions of role 'anonymous'"),
        USER("user", "", "client: user name sent to a broker (CLI --target, Mikyu.dial, JMS)"),
        PASSWORD("password", "", "client: password sent to a broker");

        private final String key;
        private final String defaultValue;
        private final String description;

        Key(String key, String defaultValue, String description) {
            this.key = key;
            this.defaultValue = defaultValue;
            this.description = description;
        }

        @Override
        public String key() {
            return key;
        }

        @Override
        public String defaultValue() {
            return defaultValue;
        }

        @Override
        public String description() {
            return description;
        }
    }

    /** Every declared key by name: the engine's, then each section's, in their order. Found once. */
    private static final class Declared {
        static final Map<String, ConfigKey> KEYS = find();

        private static Map<String, ConfigKey> find() {
            Map<String, ConfigKey> keys = new LinkedHashMap<>();
            for (Key k : Key.values()) {
                keys.put(k.key(), k);
            }
            for (ConfigSection section : ServiceLoader.load(ConfigSection.class, MikyuConfig.class.getClassLoader())) {
                for (ConfigKey k : section.keys()) {
                    ConfigKey before = keys.putIfAbsent(k.key(), k);
                    if (before != null && before != k) {
                        throw new IllegalStateException("configuration key '" + k.key() + "' is declared twice: by "
                                + before.getClass().getName() + " and " + k.getClass().getName());
                    }
                }
            }
            return Collections.unmodifiableMap(keys);
        }
    }

    /** Every declared key: the engine's ({@link Key}), then those of the {@link ConfigSection}s on the class path. */
    public static List<ConfigKey> keys() {
        return List.copyOf(Declared.KEYS.values());
    }

    /**
     * One key's effective value and where it came from: {@code default}, {@code file <path>},
     * {@code system property mikyu.<key>}, or the explicit source's name ({@code --flag}, {@code URL}).
     */
    public record Setting(String key, String value, String source) {
        /** Whether printing the value would show a secret (passwords and their hashes): printed as {@code ****}. */
        public boolean secret() {
            return Secrets.isSecret(key);
        }

        public String printableValue() {
            return Secrets.printable(key, value);
        }
    }

    private final Path file;
    private final Map<String, Setting> settings;

    private MikyuConfig(Path file, Map<String, Setting> settings) {
        this.file = file;
        this.settings = Collections.unmodifiableMap(settings);
    }

    /** Defaults, overridden by {@code -Dmikyu.<key>} system properties and a config file they may name. */
    public static MikyuConfig load() {
        return load(null, Map.of(), "explicit");
    }

    /**
     * Loads the effective configuration.
     *
     * @param file           the config file; {@code null}: the one {@code -Dmikyu.config} or {@code $MIKYU_CONFIG}
     *                       names, if any
     * @param explicit       values that win over everything (URL parameters, command-line flags)
     * @param explicitSource how {@link #settings()} names their source, e.g. {@code "URL"} or {@code "flag"}
     */
    public static MikyuConfig load(Path file, Map<String, String> explicit, String explicitSource) {
        Map<String, Setting> s = new LinkedHashMap<>();
        for (ConfigKey k : Declared.KEYS.values()) {
            s.put(k.key(), new Setting(k.key(), k.defaultValue(), "default"));
        }
        Path f = file;
        if (f == null) {
            String named = System.getProperty(CONFIG_PROPERTY);
            if (named == null || named.isBlank()) {
                named = System.getenv(ENV);
            }
            f = named == null || named.isBlank() ? null : Path.of(named);
        }
        if (f != null) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the config file " + f + ": " + e, e);
            }
            for (String key : new TreeMap<>(toMap(p)).keySet()) {
                check(key, "in the config file " + f);
                s.put(key, new Setting(key, p.getProperty(key).trim(), "file " + f));
            }
        }
        for (String name : System.getProperties().stringPropertyNames()) {
            if (!name.startsWith(SYSTEM_PREFIX) || name.equals(CONFIG_PROPERTY)) {
                continue;
            }
            String key = name.substring(SYSTEM_PREFIX.length());
            if (known(key)) {     // other mikyu.* properties (test hooks) are not configuration
                s.put(key, new Setting(key, System.getProperty(name).trim(), "system property " + name));
            }
        }
        for (Map.Entry<String, String> e : new TreeMap<>(explicit).entrySet()) {
            check(e.getKey(), "(" + explicitSource + ")");
            if (e.getValue() != null) {
                s.put(e.getKey(), new Setting(e.getKey(), e.getValue().trim(), explicitSource));
            }
        }
        return new MikyuConfig(f, s);
    }

    private static Map<String, String> toMap(Properties p) {
        Map<String, String> m = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(n -> m.put(n, p.getProperty(n)));
        return m;
    }

    /** Whether {@code key} is a configuration key: a declared one ({@link #keys()}), or a user's or role's. */
    public static boolean known(String key) {
        if (Declared.KEYS.containsKey(key)) {
            return true;
        }
        for (String prefix : DYNAMIC) {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                return true;
            }
        }
        return false;
    }

    private static void check(String key, String where) {
        if (!known(key)) {
            List<String> names = new ArrayList<>(Declared.KEYS.keySet());
            names.add("users.<name>.password");
            names.add("users.<name>.roles");
            names.add("users.<name>.certificate");
            names.add("roles.<role>.produce|consume|manage|clientIds");
            throw new IllegalArgumentException("unknown configuration key '" + key + "' " + where + "; known: "
                    + String.join(", ", names));
        }
    }

    /** The config file read, or {@code null}. */
    public Path file() {
        return file;
    }

    /** Every key with its value and source: the known keys in their order, then users' and roles', sorted. */
    public List<Setting> settings() {
        List<Setting> known = new ArrayList<>();
        List<Setting> dynamic = new ArrayList<>();
        for (Setting s : settings.values()) {
            (Declared.KEYS.containsKey(s.key()) ? known : dynamic).add(s);
        }
        dynamic.sort((a, b) -> a.key().compareTo(b.key()));
        known.addAll(dynamic);
        return known;
    }

    public Setting setting(String key) {
        return settings.get(key);
    }

    /** The value, or {@code null} when it is empty (not set). */
    public String get(ConfigKey key) {
        return get(key.key());
    }

    public String get(String key) {
        Setting s = settings.get(key);
        return s == null || s.value().isEmpty() ? null : s.value();
    }

    /** Keys (and values) starting with {@code prefix}, sorted. */
    public Map<String, String> withPrefix(String prefix) {
        Map<String, String> m = new TreeMap<>();
        for (Setting s : settings.values()) {
            if (s.key().startsWith(prefix) && !s.value().isEmpty()) {
                m.put(s.key(), s.value());
            }
        }
        return m;
    }

    /** Whether the value of {@code key} came from anywhere but its default. */
    public boolean isSet(ConfigKey key) {
        Setting s = settings.get(key.key());
        return s != null && !s.source().equals("default");
    }

    /** A duration ({@link Durations}); a bare number is milliseconds, as the config file has always read it. */
    public Duration duration(ConfigKey key) {
        return Durations.parse(key.key(), require(key), ChronoUnit.MILLIS);
    }

    /** A size in bytes ({@link ByteSizes}). */
    public long bytes(ConfigKey key) {
        return ByteSizes.parse(key.key(), require(key));
    }

    /** A size in bytes that must fit an {@code int} (records, batches). */
    public int intBytes(ConfigKey key) {
        return ByteSizes.parseInt(key.key(), require(key));
    }

    /** A size in bytes, or a percentage of the maximum heap ({@code 25%}, {@code 12.5%}). */
    public long heapBytes(ConfigKey key) {
        String v = require(key).trim();
        if (!v.endsWith("%")) {
            return bytes(key);
        }
        try {
            double percent = Double.parseDouble(v.substring(0, v.length() - 1).trim());
            if (percent >= 0 && percent <= 100) {
                return (long) (Runtime.getRuntime().maxMemory() * percent / 100);
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw invalid(key.key(), v, ByteSizes.FORMS + ", or a percentage of the maximum heap from 0% to 100%");
    }

    /** A whole number of things, at least 0. */
    public long count(ConfigKey key) {
        String v = require(key).trim().replace("_", "");
        try {
            long n = Long.parseLong(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw invalid(key.key(), v, "a whole number, 0 or more");
    }

    public boolean bool(ConfigKey key) {
        String v = require(key).toLowerCase(Locale.ROOT);
        if (v.equals("true") || v.equals("false")) {
            return Boolean.parseBoolean(v);
        }
        throw invalid(key.key(), v, "true or false");
    }

    private String require(ConfigKey key) {
        String v = get(key);
        return v == null ? key.defaultValue() : v;
    }

    /** The engine settings of this configuration (no meter registry: the caller adds its own). */
    public EngineConfig.Builder engineConfig() {
        EngineConfig.Builder b = EngineConfig.builder();
        String durability = require(Key.DURABILITY);
        try {
            b.defaultDurability(Durability.parse(durability));
        } catch (IllegalArgumentException e) {
            throw invalid(Key.DURABILITY.key, durability, "sync or async");
        }
        String policy = require(Key.CORRUPTION_POLICY);
        try {
            b.corruptionPolicy(EngineConfig.CorruptionPolicy.valueOf(policy.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw invalid(Key.CORRUPTION_POLICY.key, policy, "quarantine or fail");
        }
        String transientPolicy = require(Key.TRANSIENT_MEMORY_POLICY);
        try {
            b.transientMemoryPolicy(EngineConfig.TransientMemoryPolicy.valueOf(
                    transientPolicy.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw invalid(Key.TRANSIENT_MEMORY_POLICY.key, transientPolicy, "block, fail or spill");
        }
        b.transientMemoryLimit(heapBytes(Key.TRANSIENT_MEMORY_LIMIT))
                .transientMemoryLimitPerQueue(heapBytes(Key.TRANSIENT_MEMORY_LIMIT_PER_QUEUE))
                .transientMemoryBlockTimeout(duration(Key.TRANSIENT_MEMORY_BLOCK_TIMEOUT));
        return b.flushInterval(duration(Key.FLUSH_INTERVAL))
                .maxRecordBytes(intBytes(Key.MAX_RECORD_BYTES))
                .maxBatchBytes(intBytes(Key.MAX_BATCH_BYTES))
                .minFreeDiskBytes(bytes(Key.MIN_FREE_DISK_BYTES))
                .cacheBytesPerQueue(bytes(Key.CACHE_BYTES_PER_QUEUE))
                .paceProducersAbove(Math.toIntExact(count(Key.PACE_PRODUCERS_ABOVE)))
                .taskWindow(Math.toIntExact(count(Key.TASK_WINDOW)))
                .housekeepingInterval(duration(Key.HOUSEKEEPING_INTERVAL))
                .compactionKeyMapBytes(bytes(Key.COMPACTION_KEY_MAP_BYTES))
                .verifyChecksumsOnRead(bool(Key.VERIFY_CHECKSUMS))
                .maxOpenSegmentFiles(Math.toIntExact(count(Key.MAX_OPEN_SEGMENT_FILES)));
    }

    private static IllegalArgumentException invalid(String key, String value, String expected) {
        return new IllegalArgumentException("configuration " + key + "=" + value + " is not " + expected);
    }
}
