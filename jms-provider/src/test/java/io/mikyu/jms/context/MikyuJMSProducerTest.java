package io.mikyu.jms.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.mikyu.jms.MikyuQueue;
import io.mikyu.jms.MikyuTopic;
import io.mikyu.jms.message.MikyuTextMessage;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotWriteableRuntimeException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;

class MikyuJMSProducerTest {

    private static final Queue QUEUE = new MikyuQueue("q");

    private final FakeClassic classic = new FakeClassic(false);
    private final JMSContext context = MikyuJMSContext.create(classic.connection, JMSContext.AUTO_ACKNOWLEDGE);
    private final JMSProducer producer = context.createProducer();

    // ---------------------------------------------------------------- properties

    @Test
    void shouldConvertPropertiesAsMessagePropertiesDo() {
        producer.setProperty("b", (byte) 7).setProperty("i", 42).setProperty("f", 1.5f).setProperty("s", "12")
                .setProperty("z", true);

        assertThat(producer.getShortProperty("b")).isEqualTo((short) 7);
        assertThat(producer.getLongProperty("i")).isEqualTo(42L);
        assertThat(producer.getDoubleProperty("f")).isEqualTo(1.5d);
        assertThat(producer.getIntProperty("s")).isEqualTo(12);
        assertThat(producer.getStringProperty("z")).isEqualTo("true");
        assertThat(producer.getObjectProperty("i")).isEqualTo(42);
    }

    @Test
    void shouldThrowMessageFormatRuntimeExceptionForAnInvalidConversion() {
        producer.setProperty("z", true).setProperty("d", 2.0d);

        assertThatThrownBy(() -> producer.getIntProperty("z")).isInstanceOf(MessageFormatRuntimeException.class);
        assertThatThrownBy(() -> producer.getFloatProperty("d")).isInstanceOf(MessageFormatRuntimeException.class);
        assertThatThrownBy(() -> producer.getByteProperty("d")).isInstanceOf(MessageFormatRuntimeException.class);
    }

    @Test
    void shouldReadAMissingPropertyAsMessageGettersReadOne() {
        assertThat(producer.getBooleanProperty("none")).isFalse();
        assertThat(producer.getStringProperty("none")).isNull();
        assertThat(producer.getObjectProperty("none")).isNull();
        assertThatThrownBy(() -> producer.getByteProperty("none")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> producer.getShortProperty("none")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> producer.getIntProperty("none")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> producer.getLongProperty("none")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> producer.getFloatProperty("none")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> producer.getDoubleProperty("none")).isInstanceOf(NullPointerException.class);
    }

    @Test
    void shouldRefuseNullAndEmptyPropertyNames() {
        assertThatThrownBy(() -> producer.setProperty(null, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> producer.setProperty("", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> producer.setProperty("", (Object) 1L)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> producer.setProperty("JMSType", "x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRefuseAnObjectPropertyOfAnotherType() {
        assertThatThrownBy(() -> producer.setProperty("list", new ArrayList<>()))
                .isInstanceOf(MessageFormatRuntimeException.class);
        assertThatThrownBy(() -> producer.setProperty("char", (Object) 'c'))
                .isInstanceOf(MessageFormatRuntimeException.class);
        assertThat(producer.propertyExists("list")).isFalse();
    }

    @Test
    void shouldListPropertyNamesInAReadOnlyLiveView() {
        var names = producer.getPropertyNames();
        producer.setProperty("a", 1).setProperty("b", 2);

        assertThat(names).containsExactly("a", "b");
        assertThatThrownBy(() -> names.remove("a")).isInstanceOf(UnsupportedOperationException.class);

        producer.clearProperties();
        assertThat(names).isEmpty();
        assertThat(producer.propertyExists("a")).isFalse();
        assertThat(producer.propertyExists(null)).isFalse();
    }

    // ---------------------------------------------------------------- options and headers

    @Test
    void shouldRefuseAnInvalidDeliveryModeOrPriority() {
        assertThatThrownBy(() -> producer.setDeliveryMode(-1)).isInstanceOf(JMSRuntimeException.class);
        assertThatThrownBy(() -> producer.setPriority(-1)).isInstanceOf(JMSRuntimeException.class);
        assertThatThrownBy(() -> producer.setPriority(10)).isInstanceOf(JMSRuntimeException.class);
        assertThat(producer.getDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(producer.getPriority()).isEqualTo(Message.DEFAULT_PRIORITY);
    }

    @Test
    void shouldCopyTheCorrelationIDBytesAndReadThemAsText() {
        byte[] id = "corr".getBytes(StandardCharsets.UTF_8);
        producer.setJMSCorrelationIDAsBytes(id);
        id[0] = 'X';

        assertThat(producer.getJMSCorrelationIDAsBytes()).isEqualTo("corr".getBytes(StandardCharsets.UTF_8));
        assertThat(producer.getJMSCorrelationID()).isEqualTo("corr");

        producer.setJMSCorrelationID("text");
        assertThat(producer.getJMSCorrelationIDAsBytes()).isEqualTo("text".getBytes(StandardCharsets.UTF_8));
    }

    // ---------------------------------------------------------------- send

    @Test
    void shouldApplyOptionsHeadersAndPropertiesToEverySentMessage() throws JMSException {
        MikyuTopic replyTo = new MikyuTopic("replies");
        producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT).setPriority(7).setTimeToLive(1000)
                .setDeliveryDelay(50).setJMSType("t").setJMSCorrelationID("c").setJMSReplyTo(replyTo)
                .setProperty("p", 1).send(QUEUE, "one");
        TextMessage own = context.createTextMessage("two");
        own.setStringProperty("p", "own");
        own.setStringProperty("q", "kept");
        producer.send(QUEUE, own);

        assertThat(classic.sent).hasSize(2).allSatisfy(sent -> {
            assertThat(sent.destination()).isEqualTo(QUEUE);
            assertThat(sent.deliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
            assertThat(sent.priority()).isEqualTo(7);
            assertThat(sent.timeToLive()).isEqualTo(1000);
            assertThat(sent.deliveryDelay()).isEqualTo(50);
            assertThat(sent.message().getJMSType()).isEqualTo("t");
            assertThat(sent.message().getJMSCorrelationID()).isEqualTo("c");
            assertThat(sent.message().getJMSReplyTo()).isEqualTo(replyTo);
            assertThat(sent.message().getObjectProperty("p")).isEqualTo(1);
        });
        assertThat(classic.sent.get(1).message().getStringProperty("q")).isEqualTo("kept");
    }

    @Test
    void shouldUseOneClassicProducerForAllJMSProducersOfAContext() {
        producer.send(QUEUE, "one");
        context.createProducer().send(QUEUE, "two");

        assertThat(classic.calls).containsOnlyOnce("session.createProducer");
    }

    @Test
    void shouldCreateTheMessageTypeOfTheBodyEvenForANullBody() throws JMSException {
        producer.send(QUEUE, (String) null);
        producer.send(QUEUE, (byte[]) null);
        producer.send(QUEUE, (Map<String, Object>) null);
        producer.send(QUEUE, (java.io.Serializable) null);
        producer.send(QUEUE, new byte[] {1, 2});

        List<Message> messages = classic.sent.stream().map(FakeClassic.Sent::message).toList();
        assertThat(messages.get(0)).isInstanceOf(TextMessage.class);
        assertThat(((TextMessage) messages.get(0)).getText()).isNull();
        assertThat(messages.get(1)).isInstanceOf(BytesMessage.class);
        assertThat(messages.get(2)).isInstanceOf(MapMessage.class);
        assertThat(messages.get(3)).isInstanceOf(ObjectMessage.class);
        assertThat(((ObjectMessage) messages.get(3)).getObject()).isNull();
        assertThat(messages.get(4).getBody(byte[].class)).containsExactly(1, 2);
    }

    @Test
    void shouldRefuseANullMessageOrDestination() {
        assertThatThrownBy(() -> producer.send(QUEUE, (Message) null))
                .isInstanceOf(MessageFormatRuntimeException.class);
        assertThatThrownBy(() -> producer.send(null, "x")).isInstanceOf(InvalidDestinationRuntimeException.class);
        assertThatThrownBy(() -> producer.send(null, new MikyuTextMessage("x")))
                .isInstanceOf(InvalidDestinationRuntimeException.class);
        assertThat(classic.sent).isEmpty();
    }

    @Test
    void shouldRefuseAMapBodyWithAValueOfAnotherType() {
        Map<String, Object> body = new HashMap<>();
        body.put("list", new ArrayList<>());

        assertThatThrownBy(() -> producer.send(QUEUE, body)).isInstanceOf(MessageFormatRuntimeException.class);
    }

    @Test
    void shouldRefuseToSetPropertiesOnAReceivedMessage() {
        MikyuTextMessage received = new MikyuTextMessage("x");
        received.setReadOnlyProperties(true);

        producer.send(QUEUE, received);
        producer.setProperty("p", 1);

        assertThatThrownBy(() -> producer.send(QUEUE, received))
                .isInstanceOf(MessageNotWriteableRuntimeException.class);
    }

    @Test
    void shouldHandRuntimeExceptionsToTheCompletionListener() {
        List<Exception> failures = new ArrayList<>();
        CompletionListener listener = new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
            }

            @Override
            public void onException(Message message, Exception exception) {
                failures.add(exception);
            }
        };
        producer.setAsync(listener).send(QUEUE, "x");
        CompletionListener given = classic.sent.get(0).completionListener();

        given.onException(null, new MessageFormatException("bad"));

        assertThat(producer.getAsync()).isSameAs(listener);
        assertThat(failures).singleElement().isInstanceOf(MessageFormatRuntimeException.class);
    }

    @Test
    void shouldRefuseCloseAndCommitFromACompletionListenerOfTheContext() {
        List<RuntimeException> failures = new ArrayList<>();
        producer.setAsync(new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                try {
                    context.commit();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
                try {
                    context.close();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }

            @Override
            public void onException(Message message, Exception exception) {
            }
        }).send(QUEUE, "x");

        classic.sent.get(0).completionListener().onCompletion(classic.sent.get(0).message());

        assertThat(failures).hasSize(2).allSatisfy(e ->
                assertThat(e).isInstanceOf(jakarta.jms.IllegalStateRuntimeException.class)
                        .hasMessageContaining("CompletionListener"));
    }
}
