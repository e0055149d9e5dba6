package io.mikyu.jms.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicReference;

import io.mikyu.jms.MikyuQueue;
import io.mikyu.jms.message.MikyuStreamMessage;
import io.mikyu.jms.message.MikyuTextMessage;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.Queue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MikyuJMSContextTest {

    private static final Queue QUEUE = new MikyuQueue("q");

    private final FakeClassic classic = new FakeClassic(false);

    @ParameterizedTest
    @ValueSource(ints = {JMSContext.AUTO_ACKNOWLEDGE, JMSContext.CLIENT_ACKNOWLEDGE,
            JMSContext.DUPS_OK_ACKNOWLEDGE, JMSContext.SESSION_TRANSACTED})
    void shouldAcceptTheFourSessionModes(int mode) {
        assertThatCode(() -> MikyuJMSContext.checkSessionMode(mode)).doesNotThrowAnyException();
        assertThat(MikyuJMSContext.create(classic.connection, mode).getSessionMode()).isEqualTo(mode);
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 4, 99, Integer.MAX_VALUE})
    void shouldRefuseAnyOtherSessionMode(int mode) {
        assertThatThrownBy(() -> MikyuJMSContext.checkSessionMode(mode)).isExactlyInstanceOf(JMSRuntimeException.class);
        assertThatThrownBy(() -> MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE)
                .createContext(mode)).isExactlyInstanceOf(JMSRuntimeException.class);
    }

    @Test
    void shouldAcceptAClientIDRightAfterCreationBecauseTheSessionIsCreatedOnFirstUse() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);

        context.setClientID("me");

        assertThat(context.getClientID()).isEqualTo("me");
        assertThat(classic.calls).doesNotContain("connection.createSession");
    }

    @Test
    void shouldRefuseAClientIDAfterTheContextWasUsed() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        context.createProducer();

        assertThatThrownBy(() -> context.setClientID("late")).isInstanceOf(IllegalStateRuntimeException.class);
    }

    @Test
    void shouldCloseTheSharedConnectionWithTheLastContextOnly() {
        JMSContext first = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        JMSContext second = first.createContext(JMSContext.CLIENT_ACKNOWLEDGE);
        JMSContext third = second.createContext(JMSContext.SESSION_TRANSACTED);

        first.close();
        third.close();
        assertThat(classic.calls).doesNotContain("connection.close");

        second.close();
        assertThat(classic.calls).containsOnlyOnce("connection.close");
    }

    @Test
    void shouldCloseOnlyOnce() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        context.createTextMessage();

        context.close();
        context.close();

        assertThat(classic.calls).containsOnlyOnce("session.close").containsOnlyOnce("connection.close");
    }

    @Test
    void shouldThrowIllegalStateAfterClose() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.CLIENT_ACKNOWLEDGE);
        context.close();

        assertThatThrownBy(context::acknowledge).isInstanceOf(IllegalStateRuntimeException.class);
        assertThatThrownBy(() -> context.createContext(JMSContext.AUTO_ACKNOWLEDGE))
                .isInstanceOf(IllegalStateRuntimeException.class);
        assertThatThrownBy(context::getMetaData).isInstanceOf(IllegalStateRuntimeException.class);
        assertThatThrownBy(context::createProducer).isInstanceOf(IllegalStateRuntimeException.class);
        assertThatThrownBy(() -> context.createConsumer(QUEUE)).isInstanceOf(IllegalStateRuntimeException.class);
        assertThatThrownBy(context::getSessionMode).isInstanceOf(IllegalStateRuntimeException.class);
    }

    @Test
    void shouldStartTheConnectionWhenAConsumerIsCreatedUnlessAutoStartIsOff() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        assertThat(context.getAutoStart()).isTrue();
        context.setAutoStart(false);
        context.createConsumer(QUEUE);
        assertThat(classic.calls).doesNotContain("connection.start");

        context.setAutoStart(true);
        context.createConsumer(QUEUE);
        assertThat(classic.calls).contains("connection.start");
    }

    @Test
    void shouldRefuseANullDestinationForConsumersAndBrowsers() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);

        assertThatThrownBy(() -> context.createConsumer(null)).isInstanceOf(InvalidDestinationRuntimeException.class);
        assertThatThrownBy(() -> context.createBrowser(null)).isInstanceOf(InvalidDestinationRuntimeException.class);
        assertThatThrownBy(() -> context.createSharedConsumer(null, "s"))
                .isInstanceOf(InvalidDestinationRuntimeException.class);
    }

    @Test
    void shouldAcknowledgeWhatTheSessionConsumedInClientAcknowledgeMode() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.CLIENT_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(QUEUE);
        classic.queue(new MikyuTextMessage("a"));
        consumer.receiveNoWait();

        context.acknowledge();
        context.acknowledge();

        assertThat(classic.calls).containsOnlyOnce("message.acknowledge");
    }

    @Test
    void shouldIgnoreAcknowledgeInOtherModes() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(QUEUE);
        classic.queue(new MikyuTextMessage("a"));
        consumer.receiveNoWait();

        context.acknowledge();

        assertThat(classic.calls).doesNotContain("message.acknowledge");
    }

    @Test
    void shouldRefuseStopAndCloseFromAMessageListenerOfTheContext() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        JMSContext sibling = context.createContext(JMSContext.AUTO_ACKNOWLEDGE);
        AtomicReference<RuntimeException> stopFailure = new AtomicReference<>();
        AtomicReference<RuntimeException> closeFailure = new AtomicReference<>();
        context.createConsumer(QUEUE).setMessageListener(message -> {
            try {
                sibling.stop();
            } catch (RuntimeException e) {
                stopFailure.set(e);
            }
            try {
                context.close();
            } catch (RuntimeException e) {
                closeFailure.set(e);
            }
        });

        classic.listener.onMessage(new MikyuTextMessage("x"));

        assertThat(stopFailure.get()).isInstanceOf(IllegalStateRuntimeException.class);
        assertThat(closeFailure.get()).isInstanceOf(IllegalStateRuntimeException.class);
        assertThatCode(context::close).doesNotThrowAnyException();
    }

    @Test
    void shouldGiveBackTheApplicationsListener() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(QUEUE);
        jakarta.jms.MessageListener listener = message -> { };

        consumer.setMessageListener(listener);

        assertThat(consumer.getMessageListener()).isSameAs(listener);
        assertThat(classic.listener).isNotSameAs(listener);
    }

    @Test
    void shouldReturnTheBodyOfTheRequestedType() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(QUEUE);
        classic.queue(new MikyuTextMessage("hello"));

        assertThat(consumer.receiveBodyNoWait(CharSequence.class)).isEqualTo("hello");
        assertThat(consumer.receiveBodyNoWait(String.class)).isNull();
    }

    @Test
    void shouldRefuseStreamMessagesAndMessagesWithoutBody() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.CLIENT_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(QUEUE);
        classic.queue(new MikyuStreamMessage());
        classic.queue(new MikyuTextMessage());

        assertThatThrownBy(() -> consumer.receiveBodyNoWait(Object.class))
                .isInstanceOf(MessageFormatRuntimeException.class);
        assertThatThrownBy(() -> consumer.receiveBodyNoWait(Object.class))
                .isInstanceOf(MessageFormatRuntimeException.class);
    }

    @Test
    void shouldLeaveAWrongTypeMessageFirstWhenTheConsumerCanDeclineIt() {
        FakeClassic conditional = new FakeClassic(true);
        JMSContext context = MikyuJMSContext.create(conditional.connection, JMSContext.AUTO_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(QUEUE);
        Message text = conditional.queue(new MikyuTextMessage("hello"));

        assertThatThrownBy(() -> consumer.receiveBody(Integer.class, 1))
                .isInstanceOf(MessageFormatRuntimeException.class);

        assertThat(conditional.calls).doesNotContain("session.recover");
        assertThat(consumer.receiveNoWait()).isSameAs(text);
    }

    @Test
    void shouldRecoverAfterAWrongTypeMessageWhenTheConsumerCannotDeclineIt() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(QUEUE);
        classic.queue(new MikyuTextMessage("hello"));

        assertThatThrownBy(() -> consumer.receiveBodyNoWait(Integer.class))
                .isInstanceOf(MessageFormatRuntimeException.class);

        assertThat(classic.calls).contains("session.recover");
    }

    @Test
    void shouldCountAWrongTypeMessageAsDeliveredInClientAcknowledgeMode() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.CLIENT_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(QUEUE);
        classic.queue(new MikyuTextMessage("hello"));

        assertThatThrownBy(() -> consumer.receiveBodyNoWait(Integer.class))
                .isInstanceOf(MessageFormatRuntimeException.class);
        context.acknowledge();

        assertThat(classic.calls).doesNotContain("session.recover").contains("message.acknowledge");
    }

    @Test
    void shouldThrowIllegalStateWhenReceivingOnAClosedConsumerAndCloseItTwiceQuietly() {
        JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(QUEUE);

        consumer.close();
        context.close();

        assertThatThrownBy(consumer::receive).isInstanceOf(IllegalStateRuntimeException.class);
        assertThatCode(consumer::close).doesNotThrowAnyException();
    }
}
