package io.mikyu.broker.server;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.TransactionRolledBackRuntimeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A commit whose answer is lost took effect on the broker: the session must not report it rolled back (the
 * application would send again, or wait for consumed messages that never come back), but say that its outcome is
 * unknown. A commit the broker refused before writing anything is still a rollback. A real broker on a loopback
 * port, reached through a relay that stops carrying its answers.
 */
@Timeout(60)
class JmsCommitOutcomeTest {

    private static final String LOSSY = "?requestTimeout=2s&heartbeat=1s&reconnect=0";

    @TempDir
    Path dir;

    /** {@code oneQueue}: the commit is one batch append; otherwise (two queues) an engine transaction. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aCommitWhoseAnswerIsLostIsAnUnknownOutcomeNotARollback(boolean oneQueue) throws Exception {
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"));
             LoopbackProxy proxy = new LoopbackProxy(broker.endpoint().port());
             Connection direct = new MikyuConnectionFactory(broker.uri()).createConnection();
             Connection relayed = new MikyuConnectionFactory(proxy.uri() + LOSSY).createConnection()) {
            direct.start();
            Session s = relayed.createSession(true, Session.SESSION_TRANSACTED);
            Queue a = s.createQueue("orders");
            Queue b = s.createQueue(oneQueue ? "orders" : "audit");
            s.createConsumer(a);    // the queues are looked up now (nothing is received): the commit only writes
            s.createConsumer(b);
            MessageProducer p = s.createProducer(null);
            p.send(a, s.createTextMessage("order-1"));
            p.send(b, s.createTextMessage("order-1-audit"));
            proxy.dropDownstream();

            Throwable failure = catchThrowable(s::commit);

            assertThat(failure).isInstanceOf(JMSException.class)
                    .isNotInstanceOf(TransactionRolledBackException.class)
                    .hasMessageContaining("unknown");
            Session check = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
            List<String> stored = new ArrayList<>(drain(check.createConsumer(a)));
            if (!oneQueue) {
                stored.addAll(drain(check.createConsumer(b)));
            }
            assertThat(stored).as("the broker committed it").containsExactlyInAnyOrder("order-1", "order-1-audit");
        }
    }

    @Test
    void theSimplifiedApiReportsALostCommitAnswerAsAnUnknownOutcomeToo() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"));
             LoopbackProxy proxy = new LoopbackProxy(broker.endpoint().port());
             Connection direct = new MikyuConnectionFactory(broker.uri()).createConnection();
             JMSContext ctx = new MikyuConnectionFactory(proxy.uri() + LOSSY)
                     .createContext(JMSContext.SESSION_TRANSACTED)) {
            direct.start();
            ctx.createConsumer(ctx.createQueue("orders"));   // looked up now: the commit only writes
            ctx.createProducer().send(ctx.createQueue("orders"), "order-2");
            proxy.dropDownstream();

            Throwable failure = catchThrowable(ctx::commit);

            assertThat(failure).isInstanceOf(JMSRuntimeException.class)
                    .isNotInstanceOf(TransactionRolledBackRuntimeException.class)
                    .hasMessageContaining("unknown");
            Session check = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
            assertThat(drain(check.createConsumer(check.createQueue("orders")))).containsExactly("order-2");
        }
    }

    @Test
    void aCommitTheBrokerRefusesBeforeWritingIsStillARollback() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"));
             Connection c = new MikyuConnectionFactory(broker.uri()).createConnection()) {
            c.start();
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            Queue q = s.createQueue("orders");
            s.createProducer(q).send(s.createTextMessage("x".repeat(1 << 20)));   // over the broker's record limit

            assertThat(catchThrowable(s::commit)).isInstanceOf(TransactionRolledBackException.class);
            Session check = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            assertThat(check.createConsumer(q).receive(1_000)).isNull();
        }
    }

    private static List<String> drain(MessageConsumer c) throws JMSException {
        List<String> out = new ArrayList<>();
        Message m;
        while ((m = c.receive(out.isEmpty() ? 5_000 : 500)) != null) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }
}
