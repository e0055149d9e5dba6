package io.mikyu.jms.large;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Messages over the record limit (8 MiB) on vm:// queues: stored as large bodies, through the ordinary API and
 * streamed ({@code JMS_MIKYU_InputStream}, {@code JMS_MIKYU_SaveStream}, {@code JMS_MIKYU_OutputStream}), with
 * selectors, browsing and redelivery as for small messages, and their bodies deleted once acknowledged.
 */
@Timeout(180)
class LargeMessageTest {

    private static final int MIB = 1024 * 1024;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path data;
    private Connection connection;

    @BeforeEach
    void open() throws Exception {
        connection = new MikyuConnectionFactory("vm://" + data + "?durability=async&housekeepingInterval=50ms")
                .createConnection();
        connection.start();
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
    }

    private List<Path> bodyFiles() throws Exception {
        Path dir = data.resolve("bodies");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".body")).toList();
        }
    }

    @Test
    void aBytesMessageOverTheRecordLimitGoesThroughTheOrdinaryApi() throws Exception {
        Session s = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue q = s.createQueue("big");
        byte[] body = PatternStream.bytes(20 * MIB + 3, 1);
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(body);
        m.setStringProperty("name", "twenty");
        s.createProducer(q).send(m);
        assertThat(bodyFiles()).as("stored beside the queue").hasSize(1);

        BytesMessage got = (BytesMessage) s.createConsumer(q).receive(30_000);
        assertThat(got.getStringProperty("name")).isEqualTo("twenty");
        assertThat(got.getBodyLength()).isEqualTo(body.length);
        byte[] read = new byte[body.length];
        assertThat(got.readBytes(read)).isEqualTo(body.length);
        assertThat(read).isEqualTo(body);
        assertThat(got.getBody(byte[].class)).isEqualTo(body);
        got.acknowledge();
        await().atMost(DEADLINE).until(() -> bodyFiles().isEmpty());
    }

    @Test
    void textAndObjectMessagesOverTheRecordLimitArriveWhole() throws Exception {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("big-text");
        String text = "x".repeat(12 * MIB) + "end";
        ArrayList<Integer> list = new ArrayList<>(Collections.nCopies(2 * MIB, 7));
        MessageProducer p = s.createProducer(q);
        p.send(s.createTextMessage(text));
        p.send(s.createObjectMessage(list));
        MessageConsumer c = s.createConsumer(q);
        assertThat(((TextMessage) c.receive(30_000)).getText()).isEqualTo(text);
        assertThat(((ObjectMessage) c.receive(30_000)).getObject()).isEqualTo(list);
    }

    @Test
    void aStreamedBodyIsSavedIntoAnOutputStream() throws Exception {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("streamed");
        long length = 64L * MIB + 11;
        BytesMessage m = s.createBytesMessage();
        m.setObjectProperty("JMS_MIKYU_InputStream", new PatternStream(length, 2));
        m.setIntProperty("part", 1);
        s.createProducer(q).send(m);

        BytesMessage got = (BytesMessage) s.createConsumer(q).receive(30_000);
        assertThat(got.getIntProperty("part")).isEqualTo(1);
        assertThat(got.getBodyLength()).isEqualTo(length);
        PatternStream.Digest saved = new PatternStream.Digest();
        got.setObjectProperty("JMS_MIKYU_SaveStream", saved);
        assertThat(saved.count).as("saved before the call returned").isEqualTo(length);
        assertThat(saved.digest()).isEqualTo(PatternStream.digestOf(length, 2));
    }

    @Test
    void anOutputStreamIsFilledInTheBackground() throws Exception {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("background");
        long length = 10L * MIB;
        BytesMessage m = s.createBytesMessage();
        m.setObjectProperty("JMS_MIKYU_InputStream", new PatternStream(length, 3));
        s.createProducer(q).send(m);

        Message got = s.createConsumer(q).receive(30_000);
        PatternStream.Digest out = new PatternStream.Digest();
        got.setObjectProperty("JMS_MIKYU_OutputStream", out);
        await().atMost(DEADLINE).until(() -> out.flushed);
        assertThat(out.count).isEqualTo(length);
        assertThat(out.digest()).isEqualTo(PatternStream.digestOf(length, 3));
    }

    @Test
    void selectorsAndBrowsersSeeLargeMessagesByTheirProperties() throws Exception {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("colours");
        MessageProducer p = s.createProducer(q);
        for (String colour : List.of("red", "blue")) {
            BytesMessage m = s.createBytesMessage();
            m.setObjectProperty("JMS_MIKYU_InputStream", new PatternStream(3 * MIB, colour.length()));
            m.setStringProperty("colour", colour);
            p.send(m);
        }
        try (QueueBrowser b = s.createBrowser(q)) {
            List<Long> lengths = new ArrayList<>();
            for (var e = b.getEnumeration(); e.hasMoreElements(); ) {
                lengths.add(((BytesMessage) e.nextElement()).getBodyLength());
            }
            assertThat(lengths).containsExactly(3L * MIB, 3L * MIB);
        }
        BytesMessage blue = (BytesMessage) s.createConsumer(q, "colour = 'blue'").receive(30_000);
        assertThat(blue.getStringProperty("colour")).isEqualTo("blue");
        PatternStream.Digest saved = new PatternStream.Digest();
        blue.setObjectProperty("JMS_MIKYU_SaveStream", saved);
        assertThat(saved.digest()).isEqualTo(PatternStream.digestOf(3 * MIB, 4));
    }

    @Test
    void aRecoveredLargeMessageIsRedeliveredWithItsBody() throws Exception {
        Session s = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue q = s.createQueue("again");
        BytesMessage m = s.createBytesMessage();
        m.setObjectProperty("JMS_MIKYU_InputStream", new PatternStream(9 * MIB, 5));
        s.createProducer(q).send(m);
        MessageConsumer c = s.createConsumer(q);
        Message first = c.receive(30_000);
        assertThat(first.getJMSRedelivered()).isFalse();
        s.recover();
        BytesMessage second = (BytesMessage) c.receive(30_000);
        assertThat(second.getJMSRedelivered()).isTrue();
        PatternStream.Digest saved = new PatternStream.Digest();
        second.setObjectProperty("JMS_MIKYU_SaveStream", saved);
        assertThat(saved.digest()).isEqualTo(PatternStream.digestOf(9 * MIB, 5));
        second.acknowledge();
        await().atMost(DEADLINE).until(() -> bodyFiles().isEmpty());
    }

    @Test
    void misusedStreamPropertiesAreRefusedClearly() throws Exception {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        BytesMessage m = s.createBytesMessage();
        BytesMessage written = s.createBytesMessage();
        written.writeInt(1);
        assertThatThrownBy(() -> written.setObjectProperty("JMS_MIKYU_InputStream", new PatternStream(1, 1)))
                .isInstanceOf(MessageFormatException.class).hasMessageContaining("bytes written");
        assertThatThrownBy(() -> m.setObjectProperty("JMS_MIKYU_SaveStream", "not a stream"))
                .isInstanceOf(MessageFormatException.class).hasMessageContaining("OutputStream");
    }
}
