package io.mikyu.kafka;

import io.mikyu.engine.Secrets;
import io.mikyu.engine.UrlQuery;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@code kafka://host:port[,host:port...]?option=value&...} URL says: the bootstrap servers, mikyu's options
 * and, as {@code kafka.<name>}, any Kafka client setting (e.g. {@code kafka.security.protocol=SSL}), which is given to
 * every producer, consumer and admin client.
 *
 * @param bootstrapServers  the cluster's bootstrap list, as in the URL's authority
 * @param topicPrefix       prefix of every topic and group of this store ({@code prefix}, default {@code mikyu})
 * @param replicationFactor of new topics ({@code replicationFactor}, default: the cluster's default)
 * @param deliveryLimit     the cluster's {@code group.share.max.delivery.count.limit} ({@code maxDeliveryCountLimit},
 *                          default 10, Kafka's default)
 * @param clientName        {@code client.id} prefix of the clients ({@code clientName}, default {@code mikyu})
 * @param clientSettings    the {@code kafka.*} settings without the prefix
 */
public record KafkaOptions(String bootstrapServers, String topicPrefix, short replicationFactor, int deliveryLimit,
                           String clientName, Map<String, String> clientSettings) {

    static final String SCHEME = "kafka";
    private static final String CLIENT_PREFIX = "kafka.";
    private static final List<String> NAMES = List.of("prefix", "replicationFactor", "maxDeliveryCountLimit",
            "clientName", "kafka.<client setting>");

    /** Reads the URL and {@code options} (which win over the URL's query). */
    public static KafkaOptions parse(URI uri, Map<String, String> options) {
        String shown = Secrets.redact(uri.toString());
        if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("not a kafka:// URL: '" + shown + "'");
        }
        String servers = uri.getRawAuthority();
        if (servers == null || servers.isBlank()) {
            throw new IllegalArgumentException("a kafka:// URL names its bootstrap servers: kafka://host:9092[,host:9092]"
                    + ", not '" + shown + "'");
        }
        if (uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/")) {
            throw new IllegalArgumentException("a kafka:// URL has no path: '" + shown + "'");
        }
        Map<String, String> all = new LinkedHashMap<>(UrlQuery.parse(uri.getRawQuery(), uri.toString()));
        all.putAll(options);
        UrlQuery.requireKnown(all, name -> NAMES.contains(name) || name.startsWith(CLIENT_PREFIX), NAMES,
                uri.toString());
        Map<String, String> client = new LinkedHashMap<>();
        all.forEach((name, value) -> {
            if (name.startsWith(CLIENT_PREFIX)) {
                client.put(name.substring(CLIENT_PREFIX.length()), value);
            }
        });
        short replication = (short) intOption(all, "replicationFactor", -1, shown);
        if (replication == 0 || replication < -1) {
            throw new IllegalArgumentException("replicationFactor must be positive (or -1: the cluster's default) in '"
                    + shown + "'");
        }
        int limit = intOption(all, "maxDeliveryCountLimit", 10, shown);
        if (limit < 2) {
            throw new IllegalArgumentException("maxDeliveryCountLimit must be at least 2 in '" + shown + "'");
        }
        return new KafkaOptions(servers, all.getOrDefault("prefix", "mikyu"), replication, limit,
                all.getOrDefault("clientName", "mikyu"), Map.copyOf(client));
    }

    private static int intOption(Map<String, String> options, String name, int otherwise, String shown) {
        String value = options.get(name);
        if (value == null) {
            return otherwise;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option '" + name + "' must be a whole number, not '" + value + "', in '"
                    + shown + "'");
        }
    }
}
