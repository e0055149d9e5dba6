package io.mikyu.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import org.junit.jupiter.api.Test;

/** Header fields, acknowledge() and clearBody() on the base message. */
class MessageHeadersTest {

    @Test
    void newMessageHasSpecDefaults() {
        MikyuMessage m = new MikyuMessage();
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(m.getJMSPriority()).isEqualTo(Message.DEFAULT_PRIORITY);
        assertThat(m.getJMSMessageID()).isNull();
        assertThat(m.getJMSCorrelationID()).isNull();
        assertThat(m.getJMSCorrelationIDAsBytes()).isNull();
        assertThat(m.getJMSReplyTo()).isNull();
        assertThat(m.getJMSDestination()).isNull();
        assertThat(m.getJMSType()).isNull();
        assertThat(m.getJMSRedelivered()).isFalse();
        assertThat(m.getJMSTimestamp()).isZero();
        assertThat(m.getJMSExpiration()).isZero();
        assertThat(m.getJMSDeliveryTime()).isZero();
        assertThat(m.getPropertyNames().hasMoreElements()).isFalse();
    }

    @Test
    void headerFieldsRoundTripThroughTheirSetters() {
        MikyuMessage m = new MikyuMessage();
        var queue = new TestDestinations.TestQueue("q");
        var topic = new TestDestinations.TestTopic("t");
        m.setJMSMessageID("ID:1");
        m.setJMSTimestamp(11);
        m.setJMSCorrelationID("corr");
        m.setJMSReplyTo(queue);
        m.setJMSDestination(topic);
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSRedelivered(true);
        m.setJMSType("type");
        m.setJMSExpiration(22);
        m.setJMSDeliveryTime(33);
        m.setJMSPriority(9);

        assertThat(m.getJMSMessageID()).isEqualTo("ID:1");
        assertThat(m.getJMSTimestamp()).isEqualTo(11);
        assertThat(m.getJMSCorrelationID()).isEqualTo("corr");
        assertThat(m.getJMSReplyTo()).isEqualTo(queue);
        assertThat(m.getJMSDestination()).isEqualTo(topic);
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(m.getJMSRedelivered()).isTrue();
        assertThat(m.getJMSType()).isEqualTo("type");
        assertThat(m.getJMSExpiration()).isEqualTo(22);
        assertThat(m.getJMSDeliveryTime()).isEqualTo(33);
        assertThat(m.getJMSPriority()).isEqualTo(9);
    }

    @Test
    void headerFieldsStayWritableOnAReceivedMessage() {
        MikyuMessage m = new MikyuMessage();
        m.setReadOnlyProperties(true);
        m.setReadOnlyBody(true);
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSPriority(1);
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(m.getJMSPriority()).isEqualTo(1);
    }

    @Test
    void correlationIdAsBytesIsCopiedInAndOut() {
        MikyuMessage m = new MikyuMessage();
        byte[] id = {1, 2, 3};
        m.setJMSCorrelationIDAsBytes(id);
        id[0] = 9;
        byte[] read = m.getJMSCorrelationIDAsBytes();
        assertThat(read).containsExactly(1, 2, 3);
        read[1] = 9;
        assertThat(m.getJMSCorrelationIDAsBytes()).containsExactly(1, 2, 3);
        assertThat(m.isCorrelationIDBytes()).isTrue();
    }

    @Test
    void stringAndBytesCorrelationIdsReplaceEachOtherAndReadAcrossAsUtf8() {
        MikyuMessage m = new MikyuMessage();
        m.setJMSCorrelationIDAsBytes("abc".getBytes(StandardCharsets.UTF_8));
        assertThat(m.getJMSCorrelationID()).isEqualTo("abc");

        m.setJMSCorrelationID("x\u00e9");
        assertThat(m.isCorrelationIDBytes()).isFalse();
        assertThat(m.getJMSCorrelationIDAsBytes()).isEqualTo("x\u00e9".getBytes(StandardCharsets.UTF_8));

        m.setJMSCorrelationIDAsBytes(null);
        assertThat(m.getJMSCorrelationID()).isNull();
        assertThat(m.getJMSCorrelationIDAsBytes()).isNull();
    }

    @Test
    void acknowledgeWithoutAnAcknowledgerDoesNothing() throws JMSException {
        new MikyuMessage().acknowledge();
    }

    @Test
    void acknowledgeDelegatesToTheAcknowledgerWithTheMessage() throws JMSException {
        List<MikyuMessage> acked = new ArrayList<>();
        MikyuTextMessage m = new MikyuTextMessage("x");
        m.setAcknowledger(acked::add);
        m.acknowledge();
        assertThat(acked).containsExactly(m);
        assertThat(m.getAcknowledger()).isNotNull();
    }

    @Test
    void acknowledgeLetsTheAcknowledgersExceptionThrough() {
        MikyuMessage m = new MikyuMessage();
        m.setAcknowledger(msg -> {
            throw new IllegalStateException("session closed");
        });
        assertThatThrownBy(m::acknowledge).isInstanceOf(IllegalStateException.class).hasMessage("session closed");
    }

    @Test
    void clearBodyOnABodylessMessageMakesItWritableAndKeepsProperties() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setStringProperty("a", "1");
        m.setReadOnlyBody(true);
        m.clearBody();
        assertThat(m.isReadOnlyBody()).isFalse();
        assertThat(m.getStringProperty("a")).isEqualTo("1");
    }
}
