package io.mikyu.broker.server;

import io.mikyu.engine.EngineConfig;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.large.PatternStream;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * JMS messages over the frame limit (16 MiB) through a broker ({@code tcp://}): their bodies cross the wire in
 * chunks, are stored beside the queue, and are deleted once acknowledged; an upload does not hold up the
 * connection's other sessions.
 */
@Timeout(180)
class RemoteLargeMessageTest {

    private static final int MIB = 1 << 20;
    private static final EngineConfig ENGINE = EngineConfig.builder().maxRecordBytes(256 << 10)
            .housekeepingInterval(Duration.ofMillis(100)).build();

    @TempDir
    Path dir;

    private long bodyFiles() throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("data").resolve("bodies"))) {
            return s.filter(p -> p.toString().endsWith(".body")).count();
        }
    }

    @Test
    void twentyMibBytesAndTextMessagesGoThroughTheBroker() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"), ENGINE, o -> o);
             Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue q = s.createQueue("big");
            MessageProducer p = s.createProducer(q);
            byte[] bytes = PatternStream.bytes(20 * MIB + 3, 7);
            BytesMessage bm = s.createBytesMessage();
            bm.writeBytes(bytes);
            bm.setStringProperty("kind", "bytes");
            p.send(bm);
            String text = "x".repeat(10 * MIB) + "é".repeat(5 * MIB); // 20 MiB in UTF-8
            p.send(s.createTextMessage(text));
            assertThat(bodyFiles()).as("stored beside the queue").isEqualTo(2);

            MessageConsumer consumer = s.createConsumer(q);
            BytesMessage gotBytes = (BytesMessage) consumer.receive(60_000);
            assertThat(gotBytes.getStringProperty("kind")).isEqualTo("bytes");
            assertThat(gotBytes.getBodyLength()).isEqualTo(bytes.length);
            assertThat(gotBytes.getBody(byte[].class)).isEqualTo(bytes);
            TextMessage gotText = (TextMessage) consumer.receive(60_000);
            assertThat(gotText.getText()).isEqualTo(text);
            gotText.acknowledge();
            await().atMost(Duration.ofSeconds(60)).until(() -> bodyFiles() == 0);
        }
    }

    @Test
    void sixtyFourMibStreamedThroughTheBrokerArriveByteForByte() throws Exception {
        long length = 64L * MIB + 5;
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"), ENGINE, o -> o);
             Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("streamed");
            BytesMessage m = s.createBytesMessage();
            m.setObjectProperty("JMS_MIKYU_InputStream", new PatternStream(length, 0));
            s.createProducer(q).send(m);

            BytesMessage got = (BytesMessage) s.createConsumer(q).receive(60_000);
            assertThat(got.getBodyLength()).isEqualTo(length);
            PatternStream.Digest digest = new PatternStream.Digest();
            got.setObjectProperty("JMS_MIKYU_SaveStream", digest);
            assertThat(digest.count).isEqualTo(length);
            assertThat(digest.digest()).isEqualTo(PatternStream.digestOf(length, 0));
            await().atMost(Duration.ofSeconds(60)).until(() -> bodyFiles() == 0);
        }
    }

    @Test
    void aLargeSendOnOneSessionDoesNotHoldUpASmallSendAndReceiveOnAnotherOfTheSameConnection() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"), ENGINE, o -> o);
             Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
            c.start();
            Session large = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session small = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            AtomicBoolean smallDone = new AtomicBoolean();
            AtomicLong streamed = new AtomicLong();
            // The large body ends only after the small round trip: if the upload held the connection until the
            // body's end, neither could ever finish.
            InputStream untilSmallIsDone = new InputStream() {
                @Override
                public int read() {
                    throw new UnsupportedOperationException();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (smallDone.get() && streamed.get() > 8L * MIB) {
                        return -1;
                    }
                    int n = Math.min(len, 64 << 10);
                    streamed.addAndGet(n);
                    return n;
                }
            };
            BytesMessage big = large.createBytesMessage();
            big.setObjectProperty("JMS_MIKYU_InputStream", untilSmallIsDone);
            MessageProducer bigProducer = large.createProducer(large.createQueue("large"));
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
                try {
                    bigProducer.send(big);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> streamed.get() > 4L * MIB);

            Queue q = small.createQueue("small");
            small.createProducer(q).send(small.createTextMessage("hello"));
            TextMessage got = (TextMessage) small.createConsumer(q).receive(30_000);
            assertThat(got.getText()).isEqualTo("hello");
            assertThat(sending).as("the large send is still streaming").isNotDone();

            smallDone.set(true);
            sending.get(60, TimeUnit.SECONDS);
            BytesMessage arrived = (BytesMessage) large.createConsumer(large.createQueue("large")).receive(30_000);
            assertThat(arrived.getBodyLength()).isEqualTo(streamed.get());
        }
    }
}
