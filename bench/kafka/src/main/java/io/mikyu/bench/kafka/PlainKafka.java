package io.mikyu.bench.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Plain Kafka clients, the ceiling: a one-partition topic (as mikyu maps a queue) replicated as the cluster says;
 * producers with mikyu's producer settings ({@code acks=all}, idempotent, {@code linger.ms=1}), each send waited
 * for, as a PERSISTENT JMS send is; for a log a consumer group ({@code KafkaConsumer}, a {@code commitSync} after
 * each poll), for a queue a share group ({@code KafkaShareConsumer}, explicit acknowledgement, every record
 * {@code ACCEPT}ed, a {@code commitSync} after each poll).
 */
final class PlainKafka implements Clients {

    private static final Duration POLL = Duration.ofMillis(100);

    private final String bootstrap;
    private final Workload workload;
    private final String topic;
    private final String group;
    private final byte[] body;
    private final long run;

    PlainKafka(String bootstrap, Workload workload, String name, byte[] body, long run) throws Exception {
        this.bootstrap = bootstrap;
        this.workload = workload;
        this.topic = "plain." + name;
        this.group = "plain." + name + ".group";
        this.body = body;
        this.run = run;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty()))).all()
                    .get(60, TimeUnit.SECONDS);
            if (workload == Workload.QUEUE) {
                // a share group starts at the latest by default: records sent before a member joined would be missed
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), List.of(
                        new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                                AlterConfigOp.OpType.SET)))).all().get(60, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public Sender sender(int producer) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer());
        return new Sender() {
            @Override
            public void send(int id, long seq, long sentNanos) throws Exception {
                ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, null, body);
                r.headers().add(Stamp.RUN, Stamp.bytes(run)).add(Stamp.PRODUCER, Stamp.bytes(id))
                        .add(Stamp.SEQ, Stamp.bytes(seq)).add(Stamp.SENT, Stamp.bytes(sentNanos));
                p.send(r).get();
            }

            @Override
            public void close() {
                p.close(Duration.ofSeconds(10));
            }
        };
    }

    @Override
    public Receiver receiver(int consumer) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        if (workload == Workload.LOG) {
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props);
            c.subscribe(List.of(topic));
            return polling(c::poll, r -> { }, c::commitSync, c::close);
        }
        props.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        KafkaShareConsumer<byte[], byte[]> c = new KafkaShareConsumer<>(props);
        c.subscribe(List.of(topic));
        return polling(c::poll, r -> c.acknowledge(r, AcknowledgeType.ACCEPT), c::commitSync,
                () -> c.close(Duration.ofSeconds(10)));
    }

    /** Polls, hands each record to the sink and settles it, then commits once per poll that brought records. */
    private static Receiver polling(Function<Duration, ConsumerRecords<byte[], byte[]>> poll,
                                    Consumer<ConsumerRecord<byte[], byte[]>> settle, Runnable commit, Runnable close) {
        return new Receiver() {
            @Override
            public void receive(Sink sink) {
                ConsumerRecords<byte[], byte[]> records = poll.apply(POLL);
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    hand(r, sink);
                    settle.accept(r);
                }
                if (!records.isEmpty()) {
                    commit.run();
                }
            }

            @Override
            public void close() {
                close.run();
            }
        };
    }

    private static void hand(ConsumerRecord<byte[], byte[]> r, Sink sink) {
        Headers h = r.headers();
        sink.received(Stamp.number(h.lastHeader(Stamp.RUN).value()), (int) Stamp.number(h.lastHeader(Stamp.PRODUCER).value()),
                Stamp.number(h.lastHeader(Stamp.SEQ).value()), Stamp.number(h.lastHeader(Stamp.SENT).value()),
                r.value() == null ? 0 : r.value().length, r.deliveryCount().map(n -> n > 1).orElse(false));
    }

    @Override
    public void close() {
        // the run's topic stays: the cluster lives for this process only
    }
}
