package io.mikyu.jca.outbound;

import io.mikyu.jca.testkit.Jta;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.transaction.TransactionManager;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.XAConnection;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pooled connection used inside a JTA transaction (Narayana) next to a database (H2's XADataSource): the
 * container enlists the managed connection's XAResource, and the message and the row commit or roll back together.
 */
@Timeout(60)
class XaEnlistmentTest {

    @TempDir
    Path data;
    private Pools pool;
    private TransactionManager tm;
    private JdbcDataSource db;

    @BeforeEach
    void open() throws Exception {
        pool = new Pools(data.resolve("store"), true);
        tm = Jta.tm();
        db = new JdbcDataSource();
        db.setURL("jdbc:h2:file:" + data.resolve("db").toAbsolutePath() + "/orders");
        db.setUser("sa");
        try (var c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("create table orders(id varchar(40) primary key)");
        }
    }

    @AfterEach
    void close() throws Exception {
        if (tm.getTransaction() != null) {
            tm.rollback();
        }
        pool.close();
    }

    /** The order's message and row, in the caller's transaction; the database connection stays open until it ends. */
    private XAConnection placeOrder(String id) throws Exception {
        XAConnection xa = db.getXAConnection();
        tm.getTransaction().enlistResource(xa.getXAResource()); // what the server's JDBC pool does
        try (PreparedStatement ps = xa.getConnection().prepareStatement("insert into orders values (?)")) {
            ps.setString(1, id);
            ps.executeUpdate();
        }
        try (Connection jms = pool.cf.createConnection()) {
            Session s = jms.createSession(false, Session.AUTO_ACKNOWLEDGE);
            assertThat(s.getTransacted()).as("§12.3: the JTA transaction's, whatever was asked").isTrue();
            assertThatThrownBy(s::commit).isInstanceOf(TransactionInProgressException.class);
            assertThatThrownBy(s::rollback).isInstanceOf(TransactionInProgressException.class);
            s.createProducer(s.createQueue("orders")).send(s.createTextMessage(id));
        } // closed inside the transaction: the managed connection stays enlisted until it completes
        return xa;
    }

    private int rows(String id) throws Exception {
        try (var c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("select count(*) from orders where id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @Test
    void theMessageAndTheRowCommitTogether() throws Exception {
        tm.begin();
        XAConnection row = placeOrder("o-1");
        assertThat(pool.texts("orders", 200)).as("nothing before the commit").isEmpty();
        tm.commit();
        row.close();
        assertThat(pool.texts("orders", 2_000)).containsExactly("o-1");
        assertThat(rows("o-1")).isEqualTo(1);
        assertThat(pool.cm.freeCount()).as("back in the pool once the transaction is over").isEqualTo(1);
    }

    @Test
    void theMessageAndTheRowRollBackTogether() throws Exception {
        tm.begin();
        XAConnection row = placeOrder("o-2");
        tm.rollback();
        row.close();
        assertThat(pool.texts("orders", 300)).isEmpty();
        assertThat(rows("o-2")).isZero();

        tm.begin();
        row = placeOrder("o-3"); // the pooled connection serves the next transaction
        tm.commit();
        row.close();
        assertThat(pool.texts("orders", 2_000)).containsExactly("o-3");
        assertThat(pool.cm.created()).isEqualTo(1);
    }

    @Test
    void aMessageReceivedInARolledBackTransactionComesAgain() throws Exception {
        pool.send("in", "job");
        tm.begin();
        try (Connection jms = pool.cf.createConnection()) {
            jms.start();
            Session s = jms.createSession();
            MessageConsumer c = s.createConsumer(s.createQueue("in"));
            assertThat(((TextMessage) c.receive(5_000)).getText()).isEqualTo("job");
        }
        tm.rollback();
        var again = pool.drain("in", 2_000);
        assertThat(again).hasSize(1);
        assertThat(again.get(0).getJMSRedelivered()).isTrue();
    }

    @Test
    void aMessageReceivedInACommittedTransactionIsGone() throws Exception {
        pool.send("in2", "job");
        tm.begin();
        try (Connection jms = pool.cf.createConnection()) {
            jms.start();
            Session s = jms.createSession();
            Message m = s.createConsumer(s.createQueue("in2")).receive(5_000);
            assertThat(m).isNotNull();
            s.createProducer(s.createQueue("out2")).send(s.createTextMessage("done"));
        }
        tm.commit();
        assertThat(pool.drain("in2", 300)).isEmpty();
        assertThat(pool.texts("out2", 2_000)).containsExactly("done");
    }

    @Test
    void aContextInsideATransactionIsTransactedByIt() throws Exception {
        tm.begin();
        try (JMSContext ctx = pool.cf.createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            assertThat(ctx.getTransacted()).isTrue();
            assertThat(ctx.getSessionMode()).isEqualTo(JMSContext.SESSION_TRANSACTED);
            ctx.createProducer().send(ctx.createQueue("ctx"), "in the transaction");
            assertThatThrownBy(ctx::commit).isInstanceOf(TransactionInProgressRuntimeException.class);
            assertThatThrownBy(ctx::rollback).isInstanceOf(TransactionInProgressRuntimeException.class);
        }
        assertThat(pool.texts("ctx", 200)).isEmpty();
        tm.commit();
        assertThat(pool.texts("ctx", 2_000)).containsExactly("in the transaction");
    }

    @Test
    void twoPooledConnectionsInOneTransactionCommitAsOne() throws Exception {
        for (boolean commit : new boolean[] {false, true}) {
            tm.begin();
            try (Connection a = pool.cf.createConnection(); Connection b = pool.cf.createConnection()) {
                Session sa = a.createSession(); // two managed connections of one resource manager: one branch
                Session sb = b.createSession();
                sa.createProducer(sa.createQueue("pair")).send(sa.createTextMessage("a"));
                sb.createProducer(sb.createQueue("pair")).send(sb.createTextMessage("b"));
            }
            if (commit) {
                tm.commit();
            } else {
                tm.rollback();
            }
        }
        assertThat(pool.texts("pair", 2_000)).containsExactlyInAnyOrder("a", "b");
        assertThat(pool.cm.created()).isEqualTo(2);
        assertThat(pool.cm.freeCount()).isEqualTo(2);
    }
}
