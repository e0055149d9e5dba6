package io.mikyu.jms.config;

import io.mikyu.engine.Secrets;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the provider does with the options of a {@code kafka://host:port[,host:port...]} URL, the engine's interface
 * served by a Kafka cluster ({@code docs/kafka.md}). The provider's own options ({@code clientID}, {@code prefetch},
 * {@code maxAttempts}, ...) mean what they mean on a broker; every other option is the Kafka backend's
 * ({@code prefix}, {@code replicationFactor}, {@code kafka.<client setting>}, ...) and is given to
 * {@code Mikyu.dial}, which checks it: the provider does not depend on that backend. The options that only make
 * sense for an embedded engine or for mikyu's own broker are refused here, each with the reason.
 */
final class KafkaUrls {

    static final String SCHEME = "kafka://";

    /** Options refused on {@code kafka://}, with why. */
    private static final Map<String, String> REFUSED = refused();

    private KafkaUrls() {
    }

    private static Map<String, String> refused() {
        Map<String, String> why = new LinkedHashMap<>();
        String xa = "XA is not available on Kafka (a Kafka transaction cannot be prepared for an outside transaction"
                + " manager and decided later)";
        why.put("transactionTimeout", xa);
        why.put("prepareAhead", xa);
        String credentials = "credentials are checked by the Kafka cluster: give the client's SASL or TLS settings as"
                + " kafka.<setting> (kafka.security.protocol, kafka.sasl.jaas.config, ...)";
        why.put("users", credentials);
        why.put("allowAnonymous", credentials);
        why.put("user", credentials);
        why.put("password", credentials);
        why.put("config", "the config file holds an embedded engine's and a broker connection's settings; none"
                + " applies to Kafka: give Kafka client settings as kafka.<setting>");
        why.put("largeMessageThreshold", "large bodies beside the queue are an embedded engine's; on Kafka a body"
                + " is limited by the topic's max.message.bytes");
        for (String broker : ProviderOptions.DIAL) {
            if (!broker.equals("clientName")) {
                why.putIfAbsent(broker, broker.startsWith("tls.")
                        ? credentials : "an option of the connection to mikyu's own broker");
            }
        }
        for (String engine : ProviderOptions.ENGINE) {
            why.put(engine, "a setting of an embedded engine; the Kafka brokers have their own");
        }
        return Map.copyOf(why);
    }

    /**
     * Splits a {@code kafka://} URL's query into the provider's options and the Kafka backend's.
     *
     * @throws IllegalArgumentException naming an option that makes no sense on Kafka and why
     */
    static void split(String url, Map<String, String> all, Map<String, String> provider, Map<String, String> backend) {
        all.forEach((name, value) -> {
            String why = REFUSED.get(name);
            if (why != null) {
                throw new IllegalArgumentException("option '" + name + "' is not for kafka:// URLs: " + why + ", in '"
                        + Secrets.redact(url) + "'");
            }
            (ProviderOptions.KNOWN.contains(name) || ProviderOptions.perDestination(name) ? provider : backend)
                    .put(name, value);
        });
    }
}
