package io.mikyu.client;

import io.mikyu.engine.UrlQuery;
import io.mikyu.engine.config.ByteSizes;
import io.mikyu.engine.config.Durations;
import io.mikyu.protocol.Protocol;
import io.mikyu.protocol.StreamDescriptor;
import io.mikyu.transport.Tls;

import java.net.URI;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The options of a dialled connection, from the URI's query ({@code tcp://host:7420?clientName=billing}) and an
 * explicit map, which wins. The query is read by {@link UrlQuery}, durations by {@link Durations} (a bare number is
 * milliseconds, as documented since the first release) and sizes by {@link ByteSizes}, as on every other surface.
 *
 * @param clientName      how the broker's logs name this client
 * @param connectTimeout  for the TCP connect and the handshake together
 * @param requestTimeout  how long a call waits for its answer beyond its own wait, before it fails
 * @param maxFrameBytes   the largest frame this client accepts (the broker may agree on less)
 * @param heartbeat       proposed interval of heartbeats (the broker decides)
 * @param reconnect       how long to keep trying to reconnect after the connection is lost ({@code 0}: never)
 * @param user            user name sent in the handshake; {@code null}: none
 * @param password        its password
 * @param tls             the {@code tls.*} settings of a {@code tls://} connection (see {@link io.mikyu.transport.Tls})
 * @param streams         whether dequeues and shared-group fetches that wait draw from consumer streams the broker
 *                        pushes to (if the broker has the feature); {@code false}: long polls only
 * @param streamCredit    the most messages a stream holds pushed and not yet taken by the application
 * @param streamCreditBytes the most bytes it holds so (always at least one message)
 * @param streamIdle      a stream nobody has taken from for this long is closed, its buffer given back
 */
record ClientOptions(String clientName, Duration connectTimeout, Duration requestTimeout, int maxFrameBytes,
                     Duration heartbeat, Duration reconnect, String user, String password, Map<String, String> tls,
                     boolean streams, int streamCredit, long streamCreditBytes, Duration streamIdle) {

    static final Set<String> NAMES = Set.of("clientName", "connectTimeout", "requestTimeout", "maxFrameBytes",
            "heartbeat", "reconnect", "user", "password", "streams", "streamCredit", "streamCreditBytes",
            "streamIdle");

    @Override
    public String toString() {
        return "ClientOptions[clientName=" + clientName + ", user=" + user + ", tls=" + tls.keySet() + "]";
    }

    static ClientOptions from(URI uri, Map<String, String> explicit) {
        Map<String, String> options = UrlQuery.parse(uri.getRawQuery(), uri.toString());
        options.putAll(explicit);
        Set<String> known = new TreeSet<>(NAMES);
        known.addAll(Tls.KEYS);
        UrlQuery.requireKnown(options, known::contains, known, uri.toString());
        Map<String, String> tls = new TreeMap<>();
        options.forEach((name, value) -> {
            if (Tls.KEYS.contains(name)) {
                tls.put(name, value);
            }
        });
        String user = options.get("user");
        String password = options.get("password");
        return new ClientOptions(
                options.getOrDefault("clientName", "mikyu-java"),
                duration(options, "connectTimeout", Duration.ofSeconds(10)),
                duration(options, "requestTimeout", Duration.ofSeconds(60)),
                (int) size(options, "maxFrameBytes", Protocol.DEFAULT_MAX_FRAME_BYTES, Protocol.MIN_FRAME_BYTES,
                        Integer.MAX_VALUE),
                duration(options, "heartbeat", Duration.ofMillis(Protocol.DEFAULT_HEARTBEAT_MILLIS)),
                duration(options, "reconnect", Duration.ZERO),
                user == null || user.isEmpty() ? null : user, password, Map.copyOf(tls),
                bool(options, "streams", true),
                (int) bounded(options, "streamCredit", 256, StreamDescriptor.MAX_CREDIT),
                size(options, "streamCreditBytes", 4 << 20, 1, StreamDescriptor.MAX_CREDIT_BYTES),
                duration(options, "streamIdle", Duration.ofSeconds(1)));
    }

    private static boolean bool(Map<String, String> options, String name, boolean fallback) {
        String text = options.get(name);
        if (text == null) {
            return fallback;
        }
        return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "on", "yes" -> true;
            case "false", "off", "no" -> false;
            default -> throw new IllegalArgumentException("option " + name + "=" + text + " is not true or false");
        };
    }

    private static long bounded(Map<String, String> options, String name, long fallback, long max) {
        String text = options.get(name);
        if (text == null) {
            return fallback;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + name + "=" + text + " is not a number");
        }
        if (value < 1 || value > max) {
            throw new IllegalArgumentException("option " + name + "=" + text + " is outside 1.." + max);
        }
        return value;
    }

    private static long size(Map<String, String> options, String name, long fallback, long min, long max) {
        String text = options.get(name);
        return text == null ? fallback : ByteSizes.parse(name, text, min, max);
    }

    private static Duration duration(Map<String, String> options, String name, Duration fallback) {
        String text = options.get(name);
        if (text == null) {
            return fallback;
        }
        return Durations.parse(name, text, ChronoUnit.MILLIS);
    }
}
