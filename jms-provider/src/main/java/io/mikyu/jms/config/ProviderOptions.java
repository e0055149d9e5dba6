package io.mikyu.jms.config;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Secrets;
import io.mikyu.engine.UrlQuery;
import io.mikyu.engine.config.ByteSizes;
import io.mikyu.engine.config.Durations;

import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A connection URL, parsed: {@code vm://<data-dir>[?name=value&...]} for an engine embedded in this JVM, or a
 * broker's {@code tcp://host:port[?...]} or {@code unix:///path/mikyu.sock[?...]}, or a Kafka cluster's
 * {@code kafka://host:port[,host:port...][?...]} ({@link KafkaUrls}). The data directory may be
 * relative ({@code vm://data}, {@code vm://./data}) or absolute ({@code vm:///var/lib/mikyu}). Unknown option names
 * are refused, so a typo never silently falls back to a default. The query is read by
 * {@link io.mikyu.engine.UrlQuery} and durations by {@link io.mikyu.engine.config.Durations}, as on every
 * surface ({@code docs/configuration.md}, "Values: durations and sizes").
 *
 * <p>Every option below is applied by this client, so it means the same on {@code vm://} and a broker:
 * {@code durability} travels with each send, {@code maxAttempts} and {@code leaseMillis} are the settings of the
 * queues and subscriptions this provider creates (a queue that exists keeps its own), {@code prefetch},
 * {@code redeliveryDelay} and {@code clientID} are the client's own behaviour. {@code users} and
 * {@code allowAnonymous} check credentials in this JVM, which protects an embedded engine only: they are refused on
 * a broker URL, where the broker checks the credentials given to {@code createConnection} (or the URL's
 * {@code user} and {@code password}).
 *
 * <p>{@code config=FILE} reads mikyu's config file ({@code io.mikyu.engine.config.MikyuConfig}; without it,
 * {@code -Dmikyu.config} or {@code $MIKYU_CONFIG}): engine settings and users for {@code vm://}, {@code user},
 * {@code password} and {@code tls.*} for a broker. The engine's keys ({@code flushInterval}, ...) may also be given
 * in a {@code vm://} URL, and override the file and {@code -Dmikyu.<key>}.
 *
 * <table>
 * <caption>The URL options</caption>
 * <tr><th>option</th><th>default</th><th>meaning</th></tr>
 * <tr><td>durability</td><td>sync</td><td>PERSISTENT sends return after fsync ({@code sync}) or after the write
 * reached the OS ({@code async}, flushed within the engine's interval); NON_PERSISTENT is always async</td></tr>
 * <tr><td>clientID</td><td>none</td><td>client ID given to every connection of this factory</td></tr>
 * <tr><td>users</td><td>none</td><td>{@code vm://} only: a users file (the config file's {@code users.*} and
 * {@code roles.*} keys); turns authentication and per-destination permissions on</td></tr>
 * <tr><td>config</td><td>none</td><td>mikyu's config file</td></tr>
 * <tr><td>user, password, tls.*</td><td></td><td>broker URLs only: credentials (those given to
 * {@code createConnection} win) and TLS settings for {@code tls://} (see {@code io.mikyu.transport.Tls})</td></tr>
 * <tr><td>allowAnonymous</td><td>false</td><td>with {@code users}: connections without credentials are let in</td></tr>
 * <tr><td>prefetch</td><td>64</td><td>messages a consumer leases ahead of the application (0 = one per receive)</td></tr>
 * <tr><td>maxAttempts</td><td>10</td><td>deliveries before a message goes to its dead-letter queue</td></tr>
 * <tr><td>redeliveryDelay</td><td>0</td><td>how long before a recovered, rolled back or failed message is delivered
 * again: a duration ({@code 500ms}, {@code 2s}); a bare number is milliseconds</td></tr>
 * <tr><td>maxAttempts.&lt;destination&gt;, redeliveryDelay.&lt;destination&gt;</td><td>the above</td><td>the
 * same for one queue or topic (its subscriptions); applied when the engine queue or subscription is created</td></tr>
 * <tr><td>leaseMillis</td><td>30000</td><td>lease of a delivered, unacknowledged message; renewed while its
 * session lives: a bare number is milliseconds, a duration ({@code 30s}) is taken too</td></tr>
 * <tr><td>transactionTimeout</td><td>60</td><td>how long (a bare number: seconds; or a duration in whole seconds,
 * {@code 5m}) an XA branch may take from {@code start} to
 * {@code prepare} (or a one-phase commit) before it is rolled back; {@code XAResource.setTransactionTimeout}
 * overrides it per resource</td></tr>
 * <tr><td>prepareAhead</td><td>false</td><td>{@code vm://} only: an XA branch's PREPARE record is written when its
 * last session {@code end}s it, so its fsync runs while the transaction manager prepares the other resources;
 * a store that crashes before {@code prepare} then lists the branch in doubt after the restart, for the manager to
 * roll back (see {@code docs/xa.md})</td></tr>
 * <tr><td>largeMessageThreshold</td><td>1MiB</td><td>queues ({@code vm://} and broker URLs): a body larger than this (a size:
 * {@code 512KiB}; a bare number is bytes) is stored as a large body beside the queue, not in the record</td></tr>
 * <tr><td>reconnect</td><td>30s</td><td>broker URLs only: how long to keep reconnecting, with backoff, to a broker
 * whose connection was lost before the connections' {@code ExceptionListener}s are told ({@code 0}: not at
 * all)</td></tr>
 * <tr><td>clientName, connectTimeout, requestTimeout, maxFrameBytes, heartbeat</td><td></td><td>broker URLs only:
 * the network client's options (see {@code Mikyu.dial})</td></tr>
 * <tr><td>streams, streamCredit, streamCreditBytes, streamIdle</td><td>true, 256, 4194304, 1s</td><td>broker URLs
 * only: consumer streams, the broker pushing ahead of {@code receive} (see {@code docs/protocol.md});
 * {@code prefetch=0} turns them off unless {@code streams} says otherwise (strictly fair dispatch)</td></tr>
 * </table>
 *
 * @param dataDir     the embedded engine's directory; {@code null} for a broker URL
 * @param brokerUri   the broker to dial, without options ({@code tcp://127.0.0.1:7420}); {@code null} for vm://
 * @param largeMessageThreshold bodies above this many bytes go to queues as large bodies
 * @param dialOptions the network client's options for {@code Mikyu.dial(brokerUri, dialOptions)}
 */
public record ProviderOptions(String url, Path dataDir, Durability persistentDurability, String clientId,
                              Path usersFile, boolean allowAnonymous, int prefetch, int maxAttempts,
                              Duration redeliveryDelay, Duration lease, String brokerUri,
                              Map<String, String> dialOptions, Map<String, Integer> maxAttemptsByDestination,
                              Map<String, Duration> redeliveryDelayByDestination, Path configFile,
                              Map<String, String> configOverrides, Duration transactionTimeout,
                              boolean prepareAhead, long largeMessageThreshold) {

    /** Bodies above this many bytes are stored as large bodies on queues, unless the URL says otherwise. */
    public static final long DEFAULT_LARGE_MESSAGE_THRESHOLD = 1024 * 1024;

    /** The redelivery limit of a queue or topic: its own option, or the default. */
    public int maxAttemptsOf(String destination) {
        return maxAttemptsByDestination.getOrDefault(destination, maxAttempts);
    }

    /** The redelivery delay of a queue or topic: its own option, or the default. */
    public Duration redeliveryDelayOf(String destination) {
        return redeliveryDelayByDestination.getOrDefault(destination, redeliveryDelay);
    }

    public static final String VM_SCHEME = "vm://";
    public static final String TCP_SCHEME = "tcp://";
    public static final String UNIX_SCHEME = "unix://";
    public static final String TLS_SCHEME = "tls://";
    /** A Kafka cluster serving the engine's interface (the artifact io.mikyu:mikyu-kafka): see {@link KafkaUrls}. */
    public static final String KAFKA_SCHEME = KafkaUrls.SCHEME;
    static final Set<String> KNOWN = Set.of("durability", "clientID", "users", "allowAnonymous", "prefetch",
            "maxAttempts", "redeliveryDelay", "leaseMillis", "config", "transactionTimeout",
            "prepareAhead", "largeMessageThreshold");
    /** The network client's options, passed to {@code Mikyu.dial} as they are. */
    static final Set<String> DIAL = Set.of("clientName", "connectTimeout", "requestTimeout",
            "maxFrameBytes", "heartbeat", "reconnect", "user", "password", "streams", "streamCredit",
            "streamCreditBytes", "streamIdle", "tls.cert", "tls.key", "tls.keyPassword",
            "tls.keystore", "tls.keystorePassword", "tls.ca", "tls.truststore", "tls.truststorePassword");
    /** Engine settings of the config file a vm:// URL may override ({@code durability} is the sends' here). */
    static final Set<String> ENGINE = Set.of("flushInterval", "maxRecordBytes", "maxBatchBytes",
            "minFreeDiskBytes", "cacheBytesPerQueue", "paceProducersAbove", "taskWindow", "housekeepingInterval",
            "verifyChecksumsOnRead", "corruptionPolicy",
            // the memory limit of NON_PERSISTENT queue messages
            "transientMemoryLimit", "transientMemoryLimitPerQueue", "transientMemoryPolicy",
            "transientMemoryBlockTimeout");
    /** How long a JMS connection keeps reconnecting to a broker it lost, unless the URL says otherwise. */
    public static final String DEFAULT_RECONNECT = "30s";

    /** Whether this URL names a broker rather than an embedded engine. */
    public boolean isRemote() {
        return brokerUri != null;
    }

    /** Whether this URL names a Kafka cluster ({@code kafka://}), a remote store without XA. */
    public boolean isKafka() {
        return brokerUri != null && brokerUri.startsWith(KAFKA_SCHEME);
    }

    /** Parses a URL; {@link IllegalArgumentException} names what is wrong. */
    public static ProviderOptions parse(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("connection URL is empty; expected vm://<data-dir>, "
                    + "tcp://<host>:<port> or unix://<socket path> [?options]");
        }
        boolean kafka = url.startsWith(KAFKA_SCHEME);
        boolean remote = kafka || url.startsWith(TCP_SCHEME) || url.startsWith(UNIX_SCHEME) || url.startsWith(TLS_SCHEME);
        if (!url.startsWith(VM_SCHEME) && !remote) {
            throw new IllegalArgumentException("'" + Secrets.redact(url) + "' is not a mikyu URL; expected vm://<data-dir>, "
                    + "tcp://<host>:<port>, tls://<host>:<port>, unix://<socket path> or kafka://<host>:<port>[,...]"
                    + " [?options]");
        }
        String scheme = url.substring(0, url.indexOf("://") + 3);
        String rest = url.substring(scheme.length());
        int q = rest.indexOf('?');
        String where = q < 0 ? rest : rest.substring(0, q);
        if (where.isEmpty() || where.equals("/")) {
            throw new IllegalArgumentException("'" + Secrets.redact(url) + "' names no " + (remote ? "broker" : "data directory")
                    + "; expected " + (remote ? "tcp://<host>:<port> or unix:///path/mikyu.sock" : "vm://<data-dir>"));
        }
        Map<String, String> all = q < 0 ? Map.of()
                : kafka ? UrlQuery.parse(rest.substring(q + 1), url) : query(url, rest.substring(q + 1), remote);
        Map<String, String> opts = new LinkedHashMap<>();
        Map<String, String> dial = new LinkedHashMap<>();
        Map<String, String> engine = new LinkedHashMap<>();
        if (kafka) {
            KafkaUrls.split(url, all, opts, dial);
        } else {
            all.forEach((k, v) -> (DIAL.contains(k) ? dial : ENGINE.contains(k) ? engine : opts).put(k, v));
        }
        if (!remote && opts.containsKey("allowAnonymous")) {
            engine.put("security.allowAnonymous", String.valueOf(bool(url, opts, "allowAnonymous")));
        }
        if (remote && !kafka) {
            dial.putIfAbsent("reconnect", DEFAULT_RECONNECT);
            if (intOption(url, opts, "prefetch", 64, 0) == 0) {
                dial.putIfAbsent("streams", "false");   // strictly fair dispatch: nothing pushed ahead either
            }
        }
        if (remote && (opts.containsKey("users") || opts.containsKey("allowAnonymous"))) {
            throw new IllegalArgumentException("'" + Secrets.redact(url) + "': users and allowAnonymous check credentials in this JVM,"
                    + " for vm:// engines only; a broker checks them itself (its config's users.*)");
        }
        Durability durability = switch (opts.getOrDefault("durability", "sync")) {
            case "sync" -> Durability.SYNC;
            case "async" -> Durability.ASYNC;
            default -> throw new IllegalArgumentException("durability must be sync or async in '" + Secrets.redact(url) + "'");
        };
        String users = opts.get("users");
        Map<String, Integer> attempts = new LinkedHashMap<>();
        Map<String, Duration> delays = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : opts.entrySet()) {
            if (e.getKey().startsWith("maxAttempts.")) {
                attempts.put(e.getKey().substring("maxAttempts.".length()),
                        intOption(url, opts, e.getKey(), 10, 1));
            } else if (e.getKey().startsWith("redeliveryDelay.")) {
                delays.put(e.getKey().substring("redeliveryDelay.".length()),
                        duration(url, opts, e.getKey(), Duration.ZERO, ChronoUnit.MILLIS, Duration.ZERO));
            }
        }
        return new ProviderOptions(url, remote ? null : Path.of(UrlQuery.decode(where, "the data directory", url)),
                durability, opts.get("clientID"),
                users == null ? null : Path.of(users), bool(url, opts, "allowAnonymous"),
                intOption(url, opts, "prefetch", 64, 0), intOption(url, opts, "maxAttempts", 10, 1),
                duration(url, opts, "redeliveryDelay", Duration.ZERO, ChronoUnit.MILLIS, Duration.ZERO),
                duration(url, opts, "leaseMillis", Duration.ofSeconds(30), ChronoUnit.MILLIS, Duration.ofMillis(100)),
                remote ? scheme + where : null, Collections.unmodifiableMap(dial), Map.copyOf(attempts),
                Map.copyOf(delays), opts.get("config") == null ? null : Path.of(opts.get("config")),
                Map.copyOf(engine), transactionTimeout(url, opts), bool(url, opts, "prepareAhead"),
                opts.get("largeMessageThreshold") == null ? DEFAULT_LARGE_MESSAGE_THRESHOLD
                        : ByteSizes.parse("largeMessageThreshold", opts.get("largeMessageThreshold"), 0,
                        Long.MAX_VALUE));
    }

    /** A duration option ({@link Durations}); a bare number is read in {@code bareUnit}, as documented. */
    private static Duration duration(String url, Map<String, String> opts, String name, Duration dflt,
                                     ChronoUnit bareUnit, Duration min) {
        String v = opts.get(name);
        if (v == null) {
            return dflt;
        }
        Duration d;
        try {
            d = Durations.parse(name, v, bareUnit);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " in '" + Secrets.redact(url) + "'", e);
        }
        if (d.compareTo(min) < 0) {
            throw new IllegalArgumentException(name + " must be at least " + Durations.format(min) + " in '"
                    + Secrets.redact(url) + "'");
        }
        return d;
    }

    /** Whole seconds, as XA has them ({@code XAResource.setTransactionTimeout}); a bare number is seconds. */
    private static Duration transactionTimeout(String url, Map<String, String> opts) {
        Duration d = duration(url, opts, "transactionTimeout", Duration.ofSeconds(60), ChronoUnit.SECONDS,
                Duration.ofSeconds(1));
        if (d.toMillis() % 1000 != 0 || d.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("transactionTimeout must be whole seconds, 1 to " + Integer.MAX_VALUE
                    + ", in '" + Secrets.redact(url) + "'");
        }
        return d;
    }

    private static Map<String, String> query(String url, String query, boolean remote) {
        Map<String, String> options = UrlQuery.parse(query, url);
        Set<String> names = new TreeSet<>(KNOWN);
        names.addAll(remote ? DIAL : ENGINE);
        names.addAll(Set.of("maxAttempts.<destination>", "redeliveryDelay.<destination>"));
        UrlQuery.requireKnown(options, name -> KNOWN.contains(name) || perDestination(name)
                || (remote ? DIAL : ENGINE).contains(name), names, url);
        return Collections.unmodifiableMap(options);
    }

    static boolean perDestination(String name) {
        return (name.startsWith("maxAttempts.") || name.startsWith("redeliveryDelay."))
                && name.indexOf('.') < name.length() - 1;
    }

    private static boolean bool(String url, Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null) {
            return false;
        }
        if (v.isEmpty() || v.equals("true")) {
            return true;
        }
        if (v.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException(name + " must be true or false in '" + Secrets.redact(url) + "'");
    }

    private static int intOption(String url, Map<String, String> opts, String name, int dflt, int min) {
        String v = opts.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min) {
                throw new IllegalArgumentException(name + " must be at least " + min + " in '" + Secrets.redact(url) + "'");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number in '" + Secrets.redact(url) + "'", e);
        }
    }
}
