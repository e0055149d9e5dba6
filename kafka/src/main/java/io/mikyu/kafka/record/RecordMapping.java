package io.mikyu.kafka.record;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.Record;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** mikyu's records as Kafka records and back: key, payload (null: a tombstone), headers and timestamp as they are. */
public final class RecordMapping {

    private RecordMapping() {
    }

    /** The Kafka record of an entry for {@code topic}'s only partition. */
    public static ProducerRecord<byte[], byte[]> toKafka(String topic, Entry entry) {
        Long timestamp = entry.timestamp() == Entry.NO_TIMESTAMP ? null : entry.timestamp();
        return new ProducerRecord<>(topic, 0, timestamp, entry.key(), entry.payload(), kafkaHeaders(entry.headers()));
    }

    public static RecordHeaders kafkaHeaders(Headers headers) {
        RecordHeaders kafka = new RecordHeaders();
        for (Headers.Header h : headers.asList()) {
            kafka.add(new RecordHeader(h.name(), h.value()));
        }
        return kafka;
    }

    public static Headers mikyuHeaders(org.apache.kafka.common.header.Headers kafka) {
        Headers.Builder headers = Headers.builder();
        boolean any = false;
        for (org.apache.kafka.common.header.Header h : kafka) {
            headers.add(h.key(), h.value());
            any = true;
        }
        return any ? headers.build() : Headers.EMPTY;
    }

    public static Record toMikyu(ConsumerRecord<byte[], byte[]> record) {
        return new Record(record.offset(), record.timestamp(), record.key(), mikyuHeaders(record.headers()),
                record.value());
    }
}
