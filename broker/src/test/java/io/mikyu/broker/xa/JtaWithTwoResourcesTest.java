package io.mikyu.broker.xa;

import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Narayana JTA (standalone, in this JVM) with mikyu as one resource and an H2 file database (XA) as the second:
 * what a JTA transaction sends and what it inserts are committed both or neither, whatever ends the transaction,
 * and what it consumes is gone for good on commit and delivered again (flagged redelivered) on rollback. Each
 * behaviour for {@code vm://} and for {@code tcp://} (a daemon process, one for the class).
 */
@Timeout(120)
class JtaWithTwoResourcesTest {

    private static final String OUT = "orders";
    private static final AtomicInteger SEQ = new AtomicInteger();
    /**
     * How long a rolled-back message may take to come back here. How soon it comes back is
     * {@link XaRedeliveryTest}'s concern; these tests are about whether.
     */
    private static final java.time.Duration REDELIVERY = java.time.Duration.ofSeconds(5);

    @TempDir
    static Path dir;

    private static final Map<Transport, MikyuStore> STORES = new EnumMap<>(Transport.class);
    /**
     * vm://: a connection the application keeps open, so the engine stays open between transactions, as in a
     * running application (what a restart does to a rolled-back branch is {@link XaRedeliveryTest}'s concern).
     */
    private static jakarta.jms.Connection keepEngineOpen;
    private static H2Db db;
    private static TransactionManager tm;

    @BeforeAll
    static void setUp() throws Exception {
        Narayana.configureThisJvm();
        tm = Narayana.transactionManager();
        db = new H2Db(dir.resolve("h2")).createTable();
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (keepEngineOpen != null) {
            keepEngineOpen.close();
        }
        STORES.values().forEach(MikyuStore::close);
    }

    @AfterEach
    void noTransactionLeftOnThisThread() throws Exception {
        if (tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
            tm.rollback();
        }
    }

    private static synchronized MikyuStore store(Transport transport) throws Exception {
        MikyuStore store = STORES.get(transport);
        if (store == null) {
            store = MikyuStore.start(transport, dir.resolve(transport.name().toLowerCase()));
            STORES.put(transport, store);
            if (transport.embedded()) {
                keepEngineOpen = Jms.plain(store.url()).createConnection();
            }
        }
        return store;
    }

    /** A name no other test uses: each test has queues and rows of its own. */
    private static String unique(String what, Transport transport) {
        return what + "-" + transport.name().toLowerCase() + "-" + SEQ.incrementAndGet();
    }

    /** Neither the message (on a queue no one else uses) nor the row exists, and nothing is left in doubt. */
    private static void assertNeither(MikyuStore store, String queue, String id) throws Exception {
        assertThat(Jms.texts(Jms.drain(store.url(), queue))).as("messages on %s", queue).isEmpty();
        assertThat(db.rows(id)).as("rows with id %s", id).isZero();
        assertThat(Jms.inDoubt(store.url())).as("mikyu branches in doubt").isEmpty();
        assertThat(db.inDoubt()).as("H2 branches in doubt").isEmpty();
    }

    /** The message, once, and the row both exist, and nothing is left in doubt. */
    private static void assertBoth(MikyuStore store, String queue, String text, String id) throws Exception {
        assertThat(Jms.texts(Jms.drain(store.url(), queue))).as("messages on %s", queue).containsExactly(text);
        assertThat(db.rows(id)).as("rows with id %s", id).isEqualTo(1);
        assertThat(Jms.inDoubt(store.url())).as("mikyu branches in doubt").isEmpty();
        assertThat(db.inDoubt()).as("H2 branches in doubt").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aCommittedTransactionDeliversTheMessageAndKeepsTheRowAndNeitherIsVisibleBefore(Transport transport)
            throws Exception {
        MikyuStore store = store(transport);
        String queue = unique(OUT, transport);
        String id = unique("order", transport);
        try (Application app = new Application(store.url(), db)) {
            tm.begin();
            app.enlist(tm);
            app.send(queue, "placed " + id);
            app.insert(id);

            assertThat(Jms.texts(Jms.drain(store.url(), queue))).as("a send inside the transaction, seen before"
                    + " commit").isEmpty();
            assertThat(db.rows(id)).as("the row inserted inside the transaction, seen before commit").isZero();

            tm.commit();
        }
        assertBoth(store, queue, "placed " + id, id);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aRolledBackTransactionNeitherDeliversTheMessageNorKeepsTheRow(Transport transport) throws Exception {
        MikyuStore store = store(transport);
        String queue = unique(OUT, transport);
        String id = unique("order", transport);
        try (Application app = new Application(store.url(), db)) {
            tm.begin();
            app.enlist(tm);
            app.send(queue, "placed " + id);
            app.insert(id);
            tm.rollback();
        }
        assertNeither(store, queue, id);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aTransactionMarkedRollbackOnlyFailsToCommitAndLeavesNeither(Transport transport) throws Exception {
        MikyuStore store = store(transport);
        String queue = unique(OUT, transport);
        String id = unique("order", transport);
        try (Application app = new Application(store.url(), db)) {
            tm.begin();
            app.enlist(tm);
            app.send(queue, "placed " + id);
            app.insert(id);
            tm.setRollbackOnly();
            assertThatThrownBy(tm::commit).isInstanceOf(RollbackException.class);
        }
        assertNeither(store, queue, id);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void anExceptionAfterTheSendAndBeforeTheInsertLeavesNeither(Transport transport) throws Exception {
        MikyuStore store = store(transport);
        String queue = unique(OUT, transport);
        String id = unique("order", transport);
        try (Application app = new Application(store.url(), db)) {
            tm.begin();
            try {
                app.enlist(tm);
                app.send(queue, "placed " + id);
                failHere();
                app.insert(id);
                tm.commit();
            } catch (IllegalStateException e) {
                tm.rollback();
            }
        }
        assertNeither(store, queue, id);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void anExceptionAfterTheInsertAndBeforeTheSendLeavesNeither(Transport transport) throws Exception {
        MikyuStore store = store(transport);
        String queue = unique(OUT, transport);
        String id = unique("order", transport);
        try (Application app = new Application(store.url(), db)) {
            tm.begin();
            try {
                app.enlist(tm);
                app.insert(id);
                failHere();
                app.send(queue, "placed " + id);
                tm.commit();
            } catch (IllegalStateException e) {
                tm.rollback();
            }
        }
        assertNeither(store, queue, id);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aMessageConsumedWithARowInsertedIsGoneForGoodWhenTheTransactionCommits(Transport transport)
            throws Exception {
        MikyuStore store = store(transport);
        String in = unique("incoming", transport);
        String id = unique("order", transport);
        Jms.send(store.url(), in, "order " + id);
        try (Application app = new Application(store.url(), db)) {
            tm.begin();
            app.enlist(tm);
            assertThat(app.receive(in, 10_000)).isEqualTo("order " + id);
            app.insert(id);
            tm.commit();
        }
        assertThat(Jms.texts(Jms.drain(store.url(), in))).as("messages left on %s after the commit", in).isEmpty();
        assertThat(db.rows(id)).isEqualTo(1);
        assertThat(Jms.inDoubt(store.url())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aMessageConsumedWithARowInsertedComesBackRedeliveredWithoutTheRowWhenTheTransactionRollsBack(
            Transport transport) throws Exception {
        MikyuStore store = store(transport);
        String in = unique("incoming", transport);
        String id = unique("order", transport);
        Jms.send(store.url(), in, "order " + id);
        try (Application app = new Application(store.url(), db)) {
            tm.begin();
            app.enlist(tm);
            assertThat(app.receive(in, 10_000)).isEqualTo("order " + id);
            app.insert(id);
            tm.rollback();
        }
        List<Jms.Received> again = Jms.drain(store.url(), in, REDELIVERY);
        assertThat(again).as("messages on %s after the rollback", in).hasSize(1);
        assertThat(again.get(0).text()).isEqualTo("order " + id);
        assertThat(again.get(0).redelivered()).as("JMSRedelivered of %s", again.get(0)).isTrue();
        assertThat(again.get(0).deliveryCount()).as("JMSXDeliveryCount of %s", again.get(0)).isEqualTo(2);
        assertThat(db.rows(id)).as("rows with id %s", id).isZero();
        assertThat(Jms.inDoubt(store.url())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aResourceVotingNoInPrepareRollsBackTheAlreadyPreparedMikyuBranch(Transport transport) throws Exception {
        MikyuStore store = store(transport);
        String in = unique("incoming", transport);
        String queue = unique(OUT, transport);
        String id = unique("order", transport);
        Jms.send(store.url(), in, "order " + id);
        try (Application app = new Application(store.url(), db)) {
            tm.begin();
            app.enlist(tm);                                     // mikyu and H2 prepare first ...
            tm.getTransaction().enlistResource(new CrashingXAResource.Vetoing());   // ... then this one votes no
            assertThat(app.receive(in, 10_000)).isEqualTo("order " + id);
            app.send(queue, "placed " + id);
            app.insert(id);
            assertThatThrownBy(tm::commit).isInstanceOf(RollbackException.class);
        }
        assertNeither(store, queue, id);
        List<Jms.Received> again = Jms.drain(store.url(), in, REDELIVERY);
        assertThat(again).as("the consumed message, back on %s", in).hasSize(1);
        assertThat(again.get(0).redelivered()).as("JMSRedelivered of %s", again.get(0)).isTrue();
        assertThat(again.get(0).deliveryCount()).as("JMSXDeliveryCount of %s", again.get(0)).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aConsumerOpenBeforeTheTransactionsConsumesInEachOfThemAsItsOutcomeSays(Transport transport)
            throws Exception {
        MikyuStore store = store(transport);
        String in = unique("incoming", transport);
        String first = unique("order", transport);
        String second = unique("order", transport);
        Jms.send(store.url(), in, first, second);
        try (Application app = new Application(store.url(), db)) {
            app.consumer(in);                                   // open (and prefetching) before any transaction

            tm.begin();
            app.enlist(tm);
            String got = app.receive(in, 10_000);
            app.insert(got);
            tm.commit();

            tm.begin();
            app.enlist(tm);
            String rolledBack = app.receive(in, 10_000);
            app.insert(rolledBack);
            tm.rollback();

            assertThat(List.of(got, rolledBack)).containsExactly(first, second);
        }
        List<Jms.Received> again = Jms.drain(store.url(), in, REDELIVERY);
        assertThat(again).as("messages on %s after a commit and a rollback", in).hasSize(1);
        assertThat(again.get(0).text()).isEqualTo(second);
        assertThat(again.get(0).redelivered()).as("JMSRedelivered of %s", again.get(0)).isTrue();
        assertThat(again.get(0).deliveryCount()).as("JMSXDeliveryCount of %s", again.get(0)).isEqualTo(2);
        assertThat(db.rows(first)).as("the row of the committed transaction").isEqualTo(1);
        assertThat(db.rows(second)).as("the row of the rolled-back transaction").isZero();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void anXaJmsContextFromAJndiBoundXaConnectionFactoryCommitsWithTheRow(Transport transport) throws Exception {
        MikyuStore store = store(transport);
        String queue = unique(OUT, transport);
        String id = unique("order", transport);
        java.util.Hashtable<String, String> env = new java.util.Hashtable<>();
        env.put(javax.naming.Context.INITIAL_CONTEXT_FACTORY, "io.mikyu.jms.jndi.MikyuInitialContextFactory");
        env.put("xaConnectionFactory.XAConnectionFactory", store.url());
        jakarta.jms.XAConnectionFactory cf = (jakarta.jms.XAConnectionFactory)
                new javax.naming.InitialContext(env).lookup("XAConnectionFactory");
        javax.sql.XAConnection jdbc = db.dataSource().getXAConnection();
        try (jakarta.jms.XAJMSContext context = cf.createXAContext()) {
            java.sql.Connection sql = jdbc.getConnection();
            tm.begin();
            tm.getTransaction().enlistResource(context.getXAResource());
            tm.getTransaction().enlistResource(jdbc.getXAResource());
            context.getContext().createProducer().send(context.getContext().createQueue(queue), "placed " + id);
            H2Db.insert(sql, id);
            tm.commit();
        } finally {
            jdbc.close();
        }
        assertBoth(store, queue, "placed " + id, id);
    }

    private static void failHere() {
        throw new IllegalStateException("the application fails in the middle of its transaction");
    }
}
