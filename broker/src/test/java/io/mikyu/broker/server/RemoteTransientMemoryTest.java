package io.mikyu.broker.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.EngineConfig.TransientMemoryPolicy;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.MemoryLimitException;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Transient tasks over a broker: held in the broker's memory under its limit; a refusal reaches the remote caller
 * as the same exception ({@code MemoryLimitException}; JMS: {@code ResourceAllocationException}), and a producer
 * blocked for memory holds up none of its connection's other sessions.
 */
@Timeout(120)
class RemoteTransientMemoryTest {

    /** Above the JMS pipeline's largest batch (4 MiB), which is admitted whole. */
    private static final long LIMIT = 6L << 20;
    private static final int BODY = 64 * 1024;

    @TempDir
    Path dir;

    private final MeterRegistry meters = new SimpleMeterRegistry();

    private RunningBroker broker(TransientMemoryPolicy policy, Duration blockTimeout) {
        return new RunningBroker(dir.resolve("data"), RunningBroker.ENGINE.toBuilder().maxRecordBytes(1 << 20)
                .meterRegistry(meters).transientMemoryLimit(LIMIT).transientMemoryPolicy(policy)
                .transientMemoryBlockTimeout(blockTimeout).build(), o -> o);
    }

    private double brokerMeter(String name) {
        return meters.find(name).gauge() != null ? meters.get(name).gauge().value()
                : meters.get(name).functionCounter().count();
    }

    private static BytesMessage message(Session s, int seq) throws Exception {
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(new byte[BODY]);
        m.setIntProperty("seq", seq);
        return m;
    }

    @Test
    void theBrokerHoldsTransientTasksInMemoryAndARefusalArrivesAsTheSameException() throws Exception {
        try (RunningBroker broker = broker(TransientMemoryPolicy.FAIL, Duration.ZERO)) {
            Mikyu client = broker.dial();
            TaskQueue q = client.createTaskQueue("np");
            q.enqueueTransient(List.of(Task.of(new byte[BODY])));
            TaskQueue onBroker = broker.store().taskQueue("np");
            assertThat(onBroker.counts().ready()).isEqualTo(1);
            assertThat(onBroker.stats().appendedRecords()).as("nothing written").isZero();
            assertThat(brokerMeter("mikyu.engine.transient.tasks")).isEqualTo(1);

            assertThatThrownBy(() -> {
                for (int i = 0; i < 200; i++) {
                    q.enqueueTransient(List.of(Task.of(new byte[BODY])));
                }
            }).isInstanceOf(MemoryLimitException.class).hasMessageContaining("memory limit reached")
                    .hasMessageContaining("task queue 'np'");
            assertThat(brokerMeter("mikyu.engine.transient.bytes")).isLessThanOrEqualTo(LIMIT);
            assertThat(brokerMeter("mikyu.engine.transient.refused")).isEqualTo(1);

            LeasedTask t = q.dequeue(1, Duration.ofMinutes(1), Duration.ofSeconds(10), null).get(0);
            q.ack(t.token());
            q.enqueueTransient(List.of(Task.of(new byte[BODY])));
        }
    }

    @Test
    void aJmsProducerOverTcpHearsResourceAllocationException() throws Exception {
        try (RunningBroker broker = broker(TransientMemoryPolicy.FAIL, Duration.ZERO);
             Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("np"));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            assertThatThrownBy(() -> {
                for (int i = 0; i < 1_000; i++) {
                    p.send(message(s, i));
                }
            }).isInstanceOf(ResourceAllocationException.class).hasMessageContaining("memory limit reached")
                    .hasMessageContaining("'np'");
            assertThat(brokerMeter("mikyu.engine.transient.bytes")).isLessThanOrEqualTo(LIMIT);
        }
    }

    @Test
    void aBlockedProducerHoldsUpNoOtherSessionOfItsConnectionAndGoesOnOnceAConsumerDrains() throws Exception {
        // More than the broker's limit and the session's send pipeline (8 MiB) hold together, so send() waits.
        int total = 400;
        try (RunningBroker broker = broker(TransientMemoryPolicy.BLOCK, Duration.ofSeconds(50));
             Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
            c.start();
            Session producing = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue np = producing.createQueue("np");
            CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
                try {
                    MessageProducer p = producing.createProducer(np);
                    p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
                    for (int i = 0; i < total; i++) {
                        p.send(message(producing, i));
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> brokerMeter("mikyu.engine.transient.blocked") > 0);
            assertThat(brokerMeter("mikyu.engine.transient.bytes")).isLessThanOrEqualTo(LIMIT);

            // Another session of the same connection sends and receives meanwhile.
            Session other = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue work = other.createQueue("work");
            other.createProducer(work).send(other.createTextMessage("meanwhile"));
            Message got = other.createConsumer(work).receive(30_000);
            assertThat(got).isInstanceOf(TextMessage.class);
            assertThat(((TextMessage) got).getText()).isEqualTo("meanwhile");
            assertThat(producer).as("still blocked").isNotDone();

            Session consuming = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = consuming.createConsumer(np);
            List<Integer> seqs = new ArrayList<>();
            Message m;
            while (seqs.size() < total && (m = consumer.receive(30_000)) != null) {
                seqs.add(m.getIntProperty("seq"));
            }
            producer.get(60, TimeUnit.SECONDS);
            assertThat(seqs).hasSize(total).isSorted();
        }
    }

    @Test
    void spillStoresWhatIsOverTheLimitAndEverythingArrives() throws Exception {
        int total = 300;
        try (RunningBroker broker = broker(TransientMemoryPolicy.SPILL, Duration.ZERO);
             Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue np = s.createQueue("np");
            MessageProducer p = s.createProducer(np);
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            for (int i = 0; i < total; i++) {
                p.send(message(s, i));
            }
            c.start();
            MessageConsumer consumer = s.createConsumer(np);
            List<Integer> seqs = new ArrayList<>();
            Message m;
            while (seqs.size() < total && (m = consumer.receive(30_000)) != null) {
                seqs.add(m.getIntProperty("seq"));
            }
            assertThat(seqs).hasSize(total).doesNotHaveDuplicates();
            assertThat(brokerMeter("mikyu.engine.transient.spilled")).isPositive();
        }
    }
}
