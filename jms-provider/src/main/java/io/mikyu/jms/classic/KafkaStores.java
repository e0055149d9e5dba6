package io.mikyu.jms.classic;

import io.mikyu.jms.config.ProviderOptions;
import io.mikyu.jms.embedded.EmbeddedEngines;
import jakarta.jms.JMSException;

/**
 * The stores of {@code kafka://} URLs: the engine's interface served by a Kafka cluster, dialled through
 * {@code Mikyu.dial} like a broker, so the provider needs nothing of the Kafka backend but its artifact on the class
 * path. Credentials given to {@code createConnection} are not mikyu's to check there: the cluster authenticates its
 * clients with the URL's {@code kafka.<setting>} (SASL, TLS).
 */
final class KafkaStores {

    /** What {@code docs/kafka.md}'s feature table says of XA, for the exceptions that refuse it. */
    static final String NO_XA = "XA is not available on the Kafka backend: a Kafka transaction cannot be prepared"
            + " for an outside transaction manager and decided later (docs/kafka.md, feature table, row XA);"
            + " use a vm:// engine or a mikyu broker (tcp://) for XA";

    private KafkaStores() {
    }

    /** Dials (or shares) the cluster's store of the URL. */
    static EmbeddedEngines.Handle dial(ProviderOptions options) throws JMSException {
        try {
            return EmbeddedEngines.acquireRemote(options.brokerUri(), options.dialOptions());
        } catch (RuntimeException e) {
            String why = e.getMessage();
            if (why != null && why.startsWith("no dialer for")) {
                why = "the Kafka backend is not on the class path: add the artifact io.mikyu:mikyu-kafka next to"
                        + " mikyu-jms (" + why + ")";
            }
            throw JmsErrors.with(new JMSException("cannot use the Kafka cluster at " + options.brokerUri() + ": "
                    + why), e);
        }
    }

    /** An XA connection is refused before anything is dialled. */
    static JMSException noXa(ProviderOptions options) {
        return new JMSException("cannot open an XA connection to " + options.brokerUri() + ": " + NO_XA);
    }
}
