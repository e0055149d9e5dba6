package io.mikyu.jms.classic;

import io.mikyu.engine.TimeSource;
import io.mikyu.engine.XidFormat;
import io.mikyu.engine.support.SteppableTimeSource;
import io.mikyu.jms.MikyuXAConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * An XA branch's timeout is a duration: the host's clock stepped an hour either way neither rolls back a branch
 * early nor lets one outlive its timeout.
 */
@Timeout(60)
class XaTimeoutClockStepTest {

    private static final int TIMEOUT_SECONDS = 60;

    @TempDir
    Path dir;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();
    private TimeSource previous;
    private XAConnection connection;

    @BeforeEach
    void stepClock() throws JMSException {
        previous = Branches.useClock(clock);
        connection = new MikyuXAConnectionFactory("vm://" + dir.resolve("data")).createXAConnection();
        connection.start();
    }

    @AfterEach
    void restoreClock() throws JMSException {
        connection.close();
        Branches.useClock(previous);
    }

    private static Xid xid(String name) {
        return new XidFormat.StoredXid(4660, name.getBytes(), new byte[] {1});
    }

    /** A branch that sent one message to {@code queue}, still associated. */
    private XAResource branchThatSent(Xid xid, String queue) throws Exception {
        XASession s = connection.createXASession();
        XAResource xa = s.getXAResource();
        assertThat(xa.setTransactionTimeout(TIMEOUT_SECONDS)).isTrue();
        xa.start(xid, XAResource.TMNOFLAGS);
        s.createProducer(s.createQueue(queue)).send(s.createTextMessage("in the branch"));
        return xa;
    }

    private String receive(String queue) throws JMSException {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer c = s.createConsumer(s.createQueue(queue));
        TextMessage m = (TextMessage) c.receive(5_000);
        c.close();
        return m == null ? null : m.getText();
    }

    @Test
    void aWallClockStepForwardRollsNoBranchBack() throws Exception {
        Xid xid = xid("forward");
        XAResource xa = branchThatSent(xid, "forward");

        clock.stepWall(Duration.ofHours(1));
        Branches.tickAll();
        clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS - 1));
        Branches.tickAll();

        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        xa.commit(xid, false);
        assertThat(receive("forward")).isEqualTo("in the branch");
    }

    @Test
    void aWallClockStepBackLetsNoBranchOutliveItsTimeout() throws Exception {
        Xid xid = xid("back");
        XAResource xa = branchThatSent(xid, "back");

        clock.stepWall(Duration.ofHours(-1));
        clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS + 1));
        Branches.tickAll();

        XAException e = catchThrowableOfType(() -> xa.end(xid, XAResource.TMSUCCESS), XAException.class);
        assertThat(e).as("the branch timed out").isNotNull();
        assertThat(e.errorCode).isEqualTo(XAException.XA_RBTIMEOUT);
    }
}
