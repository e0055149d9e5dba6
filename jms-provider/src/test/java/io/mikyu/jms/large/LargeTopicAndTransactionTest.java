package io.mikyu.jms.large;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.XidFormat;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.MikyuXAConnectionFactory;
import io.mikyu.jms.embedded.EmbeddedEngines;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Large messages on topics and in transacted and XA sessions, on {@code vm://}; the broker module runs the same
 * scenarios over {@code tcp://} by overriding {@link #url()} and {@link #dataDir()}. A topic's body is read by every
 * subscription and kept while the topic retains its record; a transacted large send is seen only at commit, and a
 * rolled-back one leaves no message and, after the store's sweeps, no body file.
 */
@Timeout(300)
public class LargeTopicAndTransactionTest {

    protected static final int MIB = 1024 * 1024;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final long RECEIVE_MS = 60_000;

    @TempDir
    protected Path dir;
    private final List<AutoCloseable> opened = new java.util.ArrayList<>();

    /** The URL the connections use. */
    protected String url() {
        return "vm://" + dataDir() + "?durability=async&housekeepingInterval=50ms";
    }

    /** The store's data directory, where {@code bodies/} is. */
    protected Path dataDir() {
        return dir.resolve("data");
    }

    /** The store the connections use, to configure a topic and apply its retention; closed after the test. */
    protected Mikyu store() {
        EmbeddedEngines.Handle shared = EmbeddedEngines.acquire(dataDir(), EngineConfig.defaults(), m -> { });
        opened.add(shared::release);
        return shared.engine();
    }

    /** Called after every connection of a test is closed (a subclass stops its broker). */
    protected void stopServer() throws Exception {
    }

    @BeforeEach
    void noBodiesYet() throws Exception {
        assertThat(bodyFiles()).isZero();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        stopServer();
    }

    private Connection connect(String clientId) throws Exception {
        Connection c = new MikyuConnectionFactory(url()).createConnection();
        opened.add(c);
        if (clientId != null) {
            c.setClientID(clientId);
        }
        c.start();
        return c;
    }

    private XAConnection connectXa() throws Exception {
        XAConnection c = new MikyuXAConnectionFactory(url()).createXAConnection();
        opened.add(c);
        c.start();
        return c;
    }

    protected long bodyFiles() throws Exception {
        Path bodies = dataDir().resolve("bodies");
        if (!Files.isDirectory(bodies)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(bodies)) {
            return s.filter(p -> p.toString().endsWith(".body")).count();
        }
    }

    private static BytesMessage streamed(Session s, long length, int seed) throws Exception {
        BytesMessage m = s.createBytesMessage();
        m.setObjectProperty("JMS_MIKYU_InputStream", new PatternStream(length, seed));
        m.setIntProperty("seed", seed);
        return m;
    }

    /** Saves the body of {@code m} into a digest: equal to the pattern's, and as long. */
    private static void assertBody(Message m, long length, int seed) throws Exception {
        assertThat(m).as("a message").isNotNull();
        BytesMessage b = (BytesMessage) m;
        assertThat(b.getBodyLength()).isEqualTo(length);
        PatternStream.Digest saved = new PatternStream.Digest();
        b.setObjectProperty("JMS_MIKYU_SaveStream", saved);
        assertThat(saved.count).isEqualTo(length);
        assertThat(saved.digest()).isEqualTo(PatternStream.digestOf(length, seed));
    }

    @Test
    void aTwentyMibMessageOnATopicReachesTwoDurableSubscribersAndANonDurableOne() throws Exception {
        Session s = connect("large-topic").createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Topic t = s.createTopic("news");
        MessageConsumer first = s.createDurableSubscriber(t, "first");
        MessageConsumer second = s.createDurableSubscriber(t, "second");
        MessageConsumer live = s.createConsumer(t);
        byte[] body = PatternStream.bytes(20 * MIB + 3, 1);
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(body);
        m.setStringProperty("name", "twenty");
        s.createProducer(t).send(m);
        assertThat(bodyFiles()).as("one body, whatever the number of subscriptions").isEqualTo(1);

        BytesMessage got = null;
        for (MessageConsumer c : List.of(first, second, live)) {
            got = (BytesMessage) c.receive(RECEIVE_MS);
            assertThat(got.getStringProperty("name")).isEqualTo("twenty");
            assertThat(got.getBody(byte[].class)).isEqualTo(body);
        }
        got.acknowledge();
        assertThat(first.receiveNoWait()).isNull();
        assertThat(bodyFiles()).as("kept while the topic retains the record").isEqualTo(1);
    }

    @Test
    void aStreamedSixtyFourMibMessageOnATopicReachesBothDurableSubscribersByteForByte() throws Exception {
        long length = 64L * MIB + 11;
        Session s = connect("streamed-topic").createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic t = s.createTopic("streams");
        MessageConsumer first = s.createDurableSubscriber(t, "first");
        MessageConsumer second = s.createDurableSubscriber(t, "second", "seed = 2", false);
        MessageProducer p = s.createProducer(t);
        p.send(streamed(s, 3 * MIB, 9)); // filtered out of the second by its selector
        p.send(streamed(s, length, 2));
        assertBody(first.receive(RECEIVE_MS), 3 * MIB, 9);
        assertBody(first.receive(RECEIVE_MS), length, 2);
        assertBody(second.receive(RECEIVE_MS), length, 2);
    }

    @Test
    void aTopicsBodyIsFreedOnceRetentionDropsItsMessage() throws Exception {
        Session s = connect("retained").createSession(false, Session.AUTO_ACKNOWLEDGE);
        LogQueue log = store().createLog("retained-news", LogQueueConfig.defaults()
                .withSegmentBytes(LogQueueConfig.MIN_SEGMENT_BYTES)
                .withRetentionBytes(LogQueueConfig.MIN_SEGMENT_BYTES));
        Topic t = s.createTopic("retained-news");
        MessageConsumer sub = s.createDurableSubscriber(t, "sub");
        MessageProducer p = s.createProducer(t);
        p.send(streamed(s, 5 * MIB, 12));
        assertBody(sub.receive(RECEIVE_MS), 5 * MIB, 12);
        assertThat(bodyFiles()).as("read, and still retained").isEqualTo(1);

        for (int i = 0; i < 60; i++) {
            p.send(s.createTextMessage("x".repeat(200))); // seals the segment holding the large message's record
        }
        log.applyRetention(); // housekeeping may have applied it already
        assertThat(log.startOffset()).as("the large message's record dropped").isPositive();
        await().atMost(DEADLINE).until(() -> bodyFiles() == 0);
    }

    @Test
    void aLargeMessageOnATopicIsRedeliveredToItsSubscriberOnRollback() throws Exception {
        Session s = connect("topic-tx").createSession(true, Session.SESSION_TRANSACTED);
        Topic t = s.createTopic("tx-news");
        MessageConsumer sub = s.createDurableSubscriber(t, "sub");
        s.createProducer(t).send(streamed(s, 9 * MIB, 4));
        assertThat(sub.receive(500)).as("not before the commit").isNull();
        s.commit();
        Message first = sub.receive(RECEIVE_MS);
        assertThat(first.getJMSRedelivered()).isFalse();
        s.rollback();
        Message again = sub.receive(RECEIVE_MS);
        assertThat(again.getJMSRedelivered()).isTrue();
        assertBody(again, 9 * MIB, 4);
        s.commit();
        assertThat(sub.receive(500)).isNull();
    }

    @Test
    void aTransactedLargeSendIsSeenOnlyAtCommitAndARolledBackOneLeavesNothing() throws Exception {
        Connection c = connect(null);
        Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
        Session plain = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = tx.createQueue("tx-big");
        MessageConsumer consumer = plain.createConsumer(q);
        MessageProducer p = tx.createProducer(q);

        p.send(streamed(tx, 12 * MIB, 5));
        assertThat(bodyFiles()).as("uploaded at send").isEqualTo(1);
        assertThat(consumer.receive(500)).as("not before the commit").isNull();
        tx.commit();
        assertBody(consumer.receive(RECEIVE_MS), 12 * MIB, 5);

        p.send(streamed(tx, 12 * MIB, 6));
        BytesMessage ordinary = tx.createBytesMessage();
        ordinary.writeBytes(PatternStream.bytes(3 * MIB, 7)); // over the threshold: a large body too
        p.send(ordinary);
        tx.rollback();
        assertThat(consumer.receive(1_000)).as("rolled back").isNull();
        await().atMost(DEADLINE).until(() -> bodyFiles() == 0);
    }

    @Test
    void aLargeMessageReceivedInATransactionIsRedeliveredOnRollback() throws Exception {
        Connection c = connect(null);
        Session plain = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
        Queue q = plain.createQueue("tx-receive");
        plain.createProducer(q).send(streamed(plain, 10 * MIB, 8));
        MessageConsumer consumer = tx.createConsumer(q);

        Message first = consumer.receive(RECEIVE_MS);
        assertThat(first.getJMSRedelivered()).isFalse();
        assertBody(first, 10 * MIB, 8);
        tx.rollback();
        Message again = consumer.receive(RECEIVE_MS);
        assertThat(again.getJMSRedelivered()).isTrue();
        assertThat(again.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
        assertBody(again, 10 * MIB, 8);
        tx.commit();
        await().atMost(DEADLINE).until(() -> bodyFiles() == 0);
    }

    @Test
    void anXaBranchWithALargeSendCommitsAndAnotherRollsBack() throws Exception {
        XASession xs = connectXa().createXASession();
        XAResource xa = xs.getXAResource();
        Queue q = xs.createQueue("xa-big");
        MessageProducer p = xs.getSession().createProducer(q);

        Xid committed = xid("large-commit");
        xa.start(committed, XAResource.TMNOFLAGS);
        p.send(streamed(xs.getSession(), 11 * MIB, 10));
        xa.end(committed, XAResource.TMSUCCESS);
        assertThat(xa.prepare(committed)).isEqualTo(XAResource.XA_OK);

        Xid rolledBack = xid("large-rollback");
        xa.start(rolledBack, XAResource.TMNOFLAGS);
        p.send(streamed(xs.getSession(), 11 * MIB, 11));
        xa.end(rolledBack, XAResource.TMSUCCESS);
        assertThat(xa.prepare(rolledBack)).isEqualTo(XAResource.XA_OK);

        Session reader = connect(null).createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = reader.createConsumer(q);
        assertThat(consumer.receive(500)).as("prepared, not committed").isNull();
        xa.commit(committed, false);
        xa.rollback(rolledBack);
        Message got = consumer.receive(RECEIVE_MS);
        assertThat(got.getIntProperty("seed")).isEqualTo(10);
        assertBody(got, 11 * MIB, 10);
        assertThat(consumer.receive(500)).as("the rolled-back branch").isNull();
        await().atMost(DEADLINE).until(() -> bodyFiles() == 0);
    }

    private static Xid xid(String name) {
        return new XidFormat.StoredXid(4660, name.getBytes(), new byte[] {1});
    }
}
