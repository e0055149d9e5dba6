package io.mikyu.kafka.admin;

import io.mikyu.engine.MikyuException;

/** A call to the Kafka cluster failed; the cause is Kafka's exception. */
public class KafkaCallException extends MikyuException {

    private static final long serialVersionUID = 1L;

    public KafkaCallException(String message, Throwable cause) {
        super(message, cause);
    }
}
