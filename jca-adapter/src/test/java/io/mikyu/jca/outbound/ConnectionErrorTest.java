package io.mikyu.jca.outbound;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.resource.spi.ConnectionEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A physical connection the provider reports lost is reported to the pool, which discards it. */
@Timeout(60)
class ConnectionErrorTest {

    @TempDir
    Path data;
    private Pools pool;

    @BeforeEach
    void open() throws Exception {
        pool = new Pools(data, false);
    }

    @AfterEach
    void close() throws Exception {
        pool.close();
    }

    @Test
    void aLostConnectionIsAConnectionErrorAndTheNextHandleGetsANewOne() throws Exception {
        Connection handle = pool.cf.createConnection();
        MikyuManagedConnection mc = pool.only();
        // What the provider does when it gives up on a broker (its ExceptionListener, with reconnect exhausted).
        mc.physical().getExceptionListener().onException(new JMSException("lost the connection to the broker"));

        assertThat(pool.cm.eventTypes()).containsExactly(ConnectionEvent.CONNECTION_ERROR_OCCURRED);
        assertThat(pool.cm.events.get(0).getException()).hasMessageContaining("lost the connection");
        assertThat(new java.util.ArrayList<Object>(pool.mcf.getInvalidConnections(Set.of(mc)))).containsExactly(mc);
        assertThat(pool.cm.destroyed()).isEqualTo(1);
        assertThatThrownBy(() -> handle.createSession().createProducer(null))
                .isInstanceOf(jakarta.jms.IllegalStateException.class);
        handle.close();

        try (Connection next = pool.cf.createConnection()) {
            Session s = next.createSession();
            s.createProducer(s.createQueue("after")).send(s.createTextMessage("fresh"));
        }
        assertThat(pool.cm.created()).isEqualTo(2);
        assertThat(pool.texts("after", 2_000)).containsExactly("fresh");
    }
}
