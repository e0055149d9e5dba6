package io.mikyu.jms;

import jakarta.jms.JMSException;

/**
 * What owns temporary destinations: a connection. Temporary queues and topics are ordinary engine queues named
 * {@value #PREFIX}{@code <connection id>.<n>}, deleted when deleted explicitly or when their connection closes.
 */
public interface TemporaryDestinations {

    String PREFIX = "tmp.";

    /** Deletes the destination; {@link JMSException} if a consumer still uses it. */
    void deleteTemporary(MikyuDestination destination) throws JMSException;

    /** True if this owner made the destination and it still exists. */
    boolean owns(MikyuDestination destination);

    static boolean isTemporaryName(String name) {
        return name.startsWith(PREFIX);
    }
}
