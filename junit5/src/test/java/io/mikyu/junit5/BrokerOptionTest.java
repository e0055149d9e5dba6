package io.mikyu.junit5;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.JMSContext;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The broker option: the test's store served on a free loopback port, for code that connects over tcp://. */
@MikyuTest(broker = true, options = {"maxAttempts=3", "flushInterval=50ms"})
class BrokerOptionTest {

    @Test
    void aJmsRoundTripOverTcpOnTheTestsStore(@BrokerUrl String url, MikyuBroker broker, MikyuQueues queues) throws Exception {
        assertThat(url).isEqualTo(broker.jmsUrl()).startsWith("tcp://127.0.0.1:" + broker.port() + "?")
                .contains("durability=async").contains("maxAttempts=3")
                .doesNotContain("flushInterval");   // the store's setting, not a broker URL's
        try (JMSContext remote = new MikyuConnectionFactory(url).createContext()) {
            remote.createProducer().send(remote.createQueue("remote.in"), "over tcp");
            assertThat(queues.receive("remote.in").getBody(String.class)).isEqualTo("over tcp");

            queues.send("remote.out", "from the test");
            assertThat(remote.createConsumer(remote.createQueue("remote.out")).receiveBody(String.class, 30_000))
                    .isEqualTo("from the test");
        }
    }

    @Test
    void theEngineApiOverTheBrokerSeesTheSameStore(MikyuBroker broker, Mikyu local) throws Exception {
        try (Mikyu remote = Mikyu.dial(broker.address())) {
            remote.getOrCreateTaskQueue("dialled", io.mikyu.engine.TaskQueueConfig.defaults())
                    .enqueue(Task.of("through the broker"));
        }
        assertThat(local.taskQueue("dialled").counts().ready()).isEqualTo(1);
    }

    static final List<String> ADDRESSES = new CopyOnWriteArrayList<>();

    @OnlyInTestKit
    @MikyuTest(broker = true)
    static class RemembersItsBroker {
        @Test
        void remembers(MikyuBroker broker) throws Exception {
            ADDRESSES.add(broker.address());
        }
    }

    @Test
    void theBrokerStopsWithTheStore() throws Exception {
        ADDRESSES.clear();
        Kit.runExpecting(RemembersItsBroker.class, s -> s.started(1).succeeded(1));
        assertThatThrownBy(() -> Mikyu.dial(ADDRESSES.get(0)).close()).isInstanceOf(RuntimeException.class);
    }
}
