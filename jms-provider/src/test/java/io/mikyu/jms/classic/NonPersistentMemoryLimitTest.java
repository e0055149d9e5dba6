package io.mikyu.jms.classic;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.ResourceAllocationRuntimeException;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * NON_PERSISTENT queue messages on {@code vm://} under the engine's transient-memory limit: {@code fail} throws the
 * specification's exception for a lack of provider resources at once, {@code block} waits for a consumer (and
 * fails after its timeout), {@code spill} delivers everything.
 */
@Timeout(120)
class NonPersistentMemoryLimitTest {

    private static final int BODY = 10_000;
    /** Room for about six 10 kB messages. */
    private static final String LIMIT = "transientMemoryLimit=64KiB";

    @TempDir
    Path data;

    private String url(String options) {
        return "vm://" + data.resolve("store") + "?" + LIMIT + "&" + options;
    }

    private static BytesMessage message(Session s, int seq) throws Exception {
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(new byte[BODY]);
        m.setIntProperty("seq", seq);
        return m;
    }

    @Test
    void failThrowsResourceAllocationExceptionAndSendsResumeOnceAConsumerTakes() throws Exception {
        try (Connection c = new MikyuConnectionFactory(url("transientMemoryPolicy=fail")).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("np");
            MessageProducer p = s.createProducer(q);
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            int sent = 0;
            ResourceAllocationException refused = null;
            while (refused == null && sent < 100) {
                try {
                    p.send(message(s, sent));
                    sent++;
                } catch (ResourceAllocationException e) {
                    refused = e;
                }
            }
            assertThat(refused).as("refused before 100 sends").isNotNull();
            assertThat(sent).isBetween(3, 7);
            assertThat(refused.getMessage()).contains("memory limit reached", "'np'", "transientMemoryLimit");
            assertThat(refused.getLinkedException()).isInstanceOf(io.mikyu.engine.MemoryLimitException.class);

            c.start();
            MessageConsumer consumer = s.createConsumer(q);
            assertThat(consumer.receive(10_000)).isNotNull();
            consumer.close(); // what it prefetched goes back; the received one is acknowledged
            p.send(message(s, sent));
        }
    }

    @Test
    void aJmsContextThrowsTheRuntimeTwin() {
        try (JMSContext ctx = new MikyuConnectionFactory(url("transientMemoryPolicy=fail")).createContext()) {
            JMSProducer p = ctx.createProducer().setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            Queue q = ctx.createQueue("np");
            assertThatThrownBy(() -> {
                for (int i = 0; i < 100; i++) {
                    p.send(q, new byte[BODY]);
                }
            }).isInstanceOf(ResourceAllocationRuntimeException.class).hasMessageContaining("memory limit reached");
        }
    }

    @Test
    void blockWaitsForTheConsumerAndEveryMessageArrivesInOrder() throws Exception {
        int total = 200;
        try (Connection c = new MikyuConnectionFactory(url("transientMemoryPolicy=block")).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("np");
            CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> {
                try {
                    MessageProducer p = s.createProducer(q);
                    p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
                    for (int i = 0; i < total; i++) {
                        p.send(message(s, i));
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Session consuming = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = consuming.createConsumer(q);
            c.start();
            List<Integer> got = new ArrayList<>();
            Message m;
            while (got.size() < total && (m = consumer.receive(30_000)) != null) {
                got.add(m.getIntProperty("seq"));
            }
            producing.get(60, TimeUnit.SECONDS);
            assertThat(got).hasSize(total).isSorted();
        }
    }

    @Test
    void blockFailsAfterItsTimeout() throws Exception {
        try (Connection c = new MikyuConnectionFactory(
                url("transientMemoryPolicy=block&transientMemoryBlockTimeout=200ms")).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("np"));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            assertThatThrownBy(() -> {
                for (int i = 0; i < 100; i++) {
                    p.send(message(s, i));
                }
            }).isInstanceOf(ResourceAllocationException.class)
                    .hasMessageContaining("waited 200 ms (transientMemoryBlockTimeout)");
        }
    }

    @Test
    void spillDeliversEveryMessage() throws Exception {
        int total = 100;
        try (Connection c = new MikyuConnectionFactory(url("transientMemoryPolicy=spill")).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("np");
            MessageProducer p = s.createProducer(q);
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            for (int i = 0; i < total; i++) {
                p.send(message(s, i));
            }
            c.start();
            MessageConsumer consumer = s.createConsumer(q);
            List<Integer> got = new ArrayList<>();
            Message m;
            while (got.size() < total && (m = consumer.receive(10_000)) != null) {
                got.add(m.getIntProperty("seq"));
            }
            assertThat(got).hasSize(total).doesNotHaveDuplicates();
        }
    }
}
