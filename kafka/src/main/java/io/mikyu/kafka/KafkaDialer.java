package io.mikyu.kafka;

import io.mikyu.engine.Dialer;
import io.mikyu.engine.Mikyu;

import java.net.URI;
import java.util.Map;

/** The dialer of {@code kafka://} URLs: {@code Mikyu.dial("kafka://broker1:9092,broker2:9092")}. */
public final class KafkaDialer implements Dialer {

    @Override
    public boolean supports(URI uri) {
        return KafkaOptions.SCHEME.equalsIgnoreCase(uri.getScheme());
    }

    @Override
    public Mikyu dial(URI uri, Map<String, String> options) {
        return KafkaMikyu.connect(uri.toString(), KafkaOptions.parse(uri, options));
    }
}
