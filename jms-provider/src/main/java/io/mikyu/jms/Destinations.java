package io.mikyu.jms;

import io.mikyu.jms.message.DestinationCodec;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;

/** The provider's {@link DestinationCodec}: stored text forms back to {@link MikyuQueue} and {@link MikyuTopic}. */
public final class Destinations implements DestinationCodec {

    public static final Destinations CODEC = new Destinations();

    private Destinations() {
    }

    @Override
    public Destination fromText(String text) throws InvalidDestinationException {
        if (text != null && text.startsWith(QUEUE_PREFIX) && text.length() > QUEUE_PREFIX.length()) {
            String name = text.substring(QUEUE_PREFIX.length());
            return TemporaryDestinations.isTemporaryName(name) ? new MikyuTemporaryQueue(name, null)
                    : new MikyuQueue(name);
        }
        if (text != null && text.startsWith(TOPIC_PREFIX) && text.length() > TOPIC_PREFIX.length()) {
            String name = text.substring(TOPIC_PREFIX.length());
            return TemporaryDestinations.isTemporaryName(name) ? new MikyuTemporaryTopic(name, null)
                    : new MikyuTopic(name);
        }
        throw new InvalidDestinationException("not a mikyu destination: '" + text
                + "' (expected queue://name or topic://name)");
    }
}
