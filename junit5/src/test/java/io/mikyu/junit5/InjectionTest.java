package io.mikyu.junit5;

import io.mikyu.engine.Mikyu;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

/** Every type the extension injects, as parameter and as field, all on the one store of the test. */
@MikyuTest
class InjectionTest {

    @InjectMikyu
    ConnectionFactory factoryField;
    @InjectMikyu
    JMSContext jmsField;
    @InjectMikyu
    Mikyu mikyuField;
    @InjectMikyu
    MikyuQueues queuesField;
    @MikyuUrl
    String urlField;
    JMSContext seenInBeforeEach;

    @BeforeEach
    void before(JMSContext jms) throws Exception {
        seenInBeforeEach = jms;
    }

    @Test
    void theVmUrlNamesTheStoreWithAsyncDurability(@MikyuUrl String url, Mikyu mikyu) throws Exception {
        assertThat(url).isEqualTo(urlField).startsWith("vm:///").endsWith("?durability=async");
        assertThat(Path.of(mikyu.location())).isDirectory();
        assertThat(url).contains(Path.of(mikyu.location()).getFileName().toString());
    }

    @Test
    void connectionFactoryOnTheStore(ConnectionFactory factory, MikyuConnectionFactory same, Mikyu mikyu) throws Exception {
        assertThat(factory).isSameAs(factoryField).isSameAs(same);
        assertThat(same.getURL()).isEqualTo(urlField);
        try (JMSContext jms = factory.createContext()) {
            jms.createProducer().send(jms.createQueue("cf"), "x");
        }
        assertThat(mikyu.taskQueue("cf").counts().ready()).isEqualTo(1);
    }

    @Test
    void oneJmsContextPerTestForFieldsParametersAndBeforeEach(JMSContext jms, MikyuQueues queues) throws Exception {
        assertThat(jms).isSameAs(jmsField).isSameAs(seenInBeforeEach);
        jms.createProducer().send(jms.createQueue("ctx"), "from the context");
        assertThat(queues.receive("ctx").getBody(String.class)).isEqualTo("from the context");
    }

    @Test
    void aStartedConnection(Connection connection, MikyuQueues queues) throws Exception {
        queues.send("conn", "to a consumer");
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(session.createQueue("conn"));
        TextMessage received = (TextMessage) consumer.receive(30_000);   // started: no start() needed
        assertThat(received.getText()).isEqualTo("to a consumer");
    }

    @Test
    void theEngineOnTheSameStoreWhoseCloseIsTheExtensions(Mikyu mikyu, MikyuQueues queues) throws Exception {
        assertThat(mikyu).isSameAs(mikyuField);
        queues.send("engine", "seen by the engine");
        mikyu.close();   // does nothing: the store stays open for the next tests
        assertThat(mikyu.isOpen()).isTrue();
        assertThat(mikyu.taskQueue("engine").counts().depth()).isEqualTo(1);
        assertThat(queuesField).isSameAs(queues);
    }

    @Test
    void noBrokerWithoutTheOption() throws Exception {
        var results = Kit.run(AsksForABroker.class);
        results.testEvents().assertThatEvents().haveExactly(1, finishedWithFailure(
                message(m -> m.contains("has no broker") && m.contains("@MikyuTest(broker = true)"))));
    }

    @OnlyInTestKit
    @MikyuTest
    static class AsksForABroker {
        @Test
        void never(@BrokerUrl String url) throws Exception {
        }
    }

    @Test
    void wrongTypesAreNamed() throws Exception {
        Kit.run(UrlOnAnInt.class).testEvents().assertThatEvents().haveExactly(1, finishedWithFailure(
                message(m -> m.contains("@MikyuUrl goes on a String"))));
        Kit.run(StaticJmsContext.class).containerEvents().assertThatEvents().haveExactly(1, finishedWithFailure(
                message(m -> m.contains("use an instance field"))));
        Kit.run(UnknownFieldType.class).testEvents().assertThatEvents().haveExactly(1, finishedWithFailure(
                message(m -> m.contains("cannot inject a java.lang.Thread"))));
    }

    @OnlyInTestKit
    @MikyuTest
    static class UrlOnAnInt {
        @Test
        void never(@MikyuUrl int url) throws Exception {
        }
    }

    @OnlyInTestKit
    @MikyuTest
    static class StaticJmsContext {
        @InjectMikyu
        static JMSContext jms;

        @Test
        void never() throws Exception {
        }
    }

    @OnlyInTestKit
    @MikyuTest
    static class UnknownFieldType {
        @InjectMikyu
        Thread thread;

        @Test
        void never() throws Exception {
        }
    }

    @Test
    void theTestsOptionsAreTheUrlsAndTheClientIdIsTheTestsOwn() throws Exception {
        Kit.runExpecting(WithClientId.class, s -> s.started(1).succeeded(1));
    }

    @OnlyInTestKit
    @MikyuTest(durability = io.mikyu.engine.Durability.SYNC, options = {"clientID=app", "maxAttempts=5"})
    static class WithClientId {
        @Test
        void subscribesDurably(@MikyuUrl String url, JMSContext jms, MikyuQueues queues) throws Exception {
            assertThat(url).endsWith("?durability=sync&clientID=app&maxAttempts=5");
            assertThat(jms.getClientID()).isEqualTo("app");
            jms.createDurableConsumer(jms.createTopic("prices"), "ticker").close();   // needs the client ID
            queues.send("q", "the helpers work beside it");
            assertThat(queues.receive("q").getBody(String.class)).isEqualTo("the helpers work beside it");
        }
    }

    @Test
    void theAccessorsNeedAnOpenStore() throws Exception {
        MikyuExtension unused = MikyuExtension.builder().build();
        assertThatThrownBy(unused::url).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no mikyu test store is open now");
    }
}
