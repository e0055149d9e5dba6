package io.mikyu.kafka;

import io.mikyu.engine.Mikyu;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaOptionsTest {

    @Test
    void readsServersOptionsAndClientSettings() {
        KafkaOptions o = KafkaOptions.parse(URI.create("kafka://b1:9092,b2:9092?prefix=shop&replicationFactor=3"
                + "&kafka.security.protocol=SSL"), Map.of("clientName", "billing"));
        assertThat(o.bootstrapServers()).isEqualTo("b1:9092,b2:9092");
        assertThat(o.topicPrefix()).isEqualTo("shop");
        assertThat(o.replicationFactor()).isEqualTo((short) 3);
        assertThat(o.clientName()).isEqualTo("billing");
        assertThat(o.clientSettings()).containsExactly(Map.entry("security.protocol", "SSL"));
        assertThat(o.deliveryLimit()).isEqualTo(10);
    }

    @Test
    void badUrlsAreRefusedClearly() {
        assertThatThrownBy(() -> KafkaOptions.parse(URI.create("kafka://b1:9092?colour=red"), Map.of()))
                .hasMessageContaining("unknown option 'colour'");
        assertThatThrownBy(() -> KafkaOptions.parse(URI.create("kafka:///path"), Map.of()))
                .hasMessageContaining("bootstrap servers");
        assertThatThrownBy(() -> KafkaOptions.parse(URI.create("kafka://b1:9092?replicationFactor=0"), Map.of()))
                .hasMessageContaining("replicationFactor");
    }

    @Test
    void theDialerIsFoundForKafkaUrlsOnly() {
        KafkaDialer dialer = new KafkaDialer();
        assertThat(dialer.supports(URI.create("kafka://b1:9092"))).isTrue();
        assertThat(dialer.supports(URI.create("tcp://127.0.0.1:7420"))).isFalse();
        // Found through ServiceLoader: a bad option fails in this module's parsing, not with "no dialer".
        assertThatThrownBy(() -> Mikyu.dial("kafka://b1:9092?colour=red"))
                .hasMessageContaining("unknown option 'colour'");
    }
}
