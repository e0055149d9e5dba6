package io.mikyu.jms.message;

import static io.mikyu.jms.message.TestDestinations.foreign;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

/** Messages implemented by another provider, as a send must accept them (spec §3.12). */
class ForeignMessageTest {

    private final MessageCodec codec = TestDestinations.codec();

    private static void fillHeadersAndProperties(Message m) throws JMSException {
        m.setJMSMessageID("ID:foreign-1");
        m.setJMSTimestamp(99);
        m.setJMSCorrelationID("c");
        Queue foreignQueue = () -> "replies";
        m.setJMSReplyTo(foreignQueue);
        m.setJMSType("T");
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSExpiration(1000);
        m.setJMSDeliveryTime(500);
        m.setJMSPriority(2);
        m.setIntProperty("count", 3);
        m.setStringProperty("name", "n");
        m.setObjectProperty("flag", true);
        m.setStringProperty("JMSXGroupID", "g");
    }

    private static void assertHeadersAndProperties(Message m) throws JMSException {
        assertThat(m).isInstanceOf(MikyuMessage.class);
        assertThat(m.getJMSMessageID()).isEqualTo("ID:foreign-1");
        assertThat(m.getJMSTimestamp()).isEqualTo(99);
        assertThat(m.getJMSCorrelationID()).isEqualTo("c");
        assertThat(((Queue) m.getJMSReplyTo()).getQueueName()).isEqualTo("replies");
        assertThat(m.getJMSType()).isEqualTo("T");
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(m.getJMSExpiration()).isEqualTo(1000);
        assertThat(m.getJMSDeliveryTime()).isEqualTo(500);
        assertThat(m.getJMSPriority()).isEqualTo(2);
        assertThat(m.getObjectProperty("count")).isEqualTo(3);
        assertThat(m.getObjectProperty("name")).isEqualTo("n");
        assertThat(m.getObjectProperty("flag")).isEqualTo(true);
        assertThat(m.getObjectProperty("JMSXGroupID")).isEqualTo("g");
    }

    @Test
    void foreignPlainMessageIsCopiedWithHeadersAndProperties() throws JMSException {
        MikyuMessage inner = new MikyuMessage();
        fillHeadersAndProperties(inner);
        Message foreign = foreign(Message.class, inner);
        MikyuMessage copy = MessageCodec.copyForeign(foreign);
        assertThat(copy.getClass()).isEqualTo(MikyuMessage.class);
        assertHeadersAndProperties(copy);
    }

    @Test
    void foreignTextMessageIsCopiedAndEncodesLikeOurs() throws JMSException {
        MikyuTextMessage inner = new MikyuTextMessage("hello");
        fillHeadersAndProperties(inner);
        TextMessage foreign = foreign(TextMessage.class, inner);
        assertThat(foreign).isNotInstanceOf(MikyuMessage.class);

        EncodedMessage e = codec.encode(foreign);
        TextMessage back = (TextMessage) codec.decode(e.headers(), e.payload(), 1);
        assertThat(back.getText()).isEqualTo("hello");
        assertHeadersAndProperties(back);
        assertThat(e.headers().getString(MessageCodec.JMS_REPLY_TO)).isEqualTo("Tqueue://replies");
    }

    @Test
    void foreignBytesMessageInWriteModeIsCopiedWhole() throws JMSException {
        MikyuBytesMessage inner = new MikyuBytesMessage();
        inner.writeInt(7);
        inner.writeUTF("abc");
        BytesMessage foreign = foreign(BytesMessage.class, inner);
        MikyuBytesMessage copy = (MikyuBytesMessage) MessageCodec.copyForeign(foreign);
        copy.reset();
        assertThat(copy.readInt()).isEqualTo(7);
        assertThat(copy.readUTF()).isEqualTo("abc");
    }

    @Test
    void foreignBytesMessageIsReadToTheEndEvenIfItsBodyLengthIsWrong() throws JMSException {
        // Like the TCK's BytesMessageTestImpl, whose getBodyLength() is a field nobody updates.
        MikyuBytesMessage inner = new MikyuBytesMessage() {
            @Override
            public long getBodyLength() {
                return 0;
            }
        };
        inner.writeLong(123);
        MikyuBytesMessage copy = (MikyuBytesMessage) MessageCodec.copyForeign(foreign(BytesMessage.class, inner));
        copy.reset();
        assertThat(copy.readLong()).isEqualTo(123);
    }

    @Test
    void largeForeignBytesMessageIsCopiedInChunks() throws JMSException {
        MikyuBytesMessage inner = new MikyuBytesMessage();
        byte[] big = new byte[200_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) i;
        }
        inner.writeBytes(big);
        MikyuBytesMessage copy = (MikyuBytesMessage) MessageCodec.copyForeign(foreign(BytesMessage.class, inner));
        assertThat(copy.bodyBytes()).isEqualTo(big);
    }

    @Test
    void foreignMapMessageIsCopiedWithEveryValueType() throws JMSException {
        MikyuMapMessage inner = new MikyuMapMessage();
        for (ValueKind kind : ValueKind.values()) {
            inner.setObject(kind.name(), kind.sample);
        }
        inner.setObject("null", null);
        MapMessage copy = (MapMessage) MessageCodec.copyForeign(foreign(MapMessage.class, inner));
        for (ValueKind kind : ValueKind.values()) {
            assertThat(copy.getObject(kind.name())).isEqualTo(kind.sample);
        }
        assertThat(copy.itemExists("null")).isTrue();
    }

    @Test
    void foreignStreamMessageIsReadToTheEndAndCopied() throws JMSException {
        MikyuStreamMessage inner = new MikyuStreamMessage();
        for (ValueKind kind : ValueKind.values()) {
            inner.writeObject(kind.sample);
        }
        inner.writeObject(null);
        StreamMessage copy = (StreamMessage) MessageCodec.copyForeign(foreign(StreamMessage.class, inner));
        copy.reset();
        for (ValueKind kind : ValueKind.values()) {
            assertThat(copy.readObject()).isEqualTo(kind.sample);
        }
        assertThat(copy.readObject()).isNull();
    }

    @Test
    void foreignObjectMessageIsCopiedByValue() throws JMSException {
        MikyuObjectMessage inner = new MikyuObjectMessage();
        inner.setObject((java.io.Serializable) List.of("x"));
        ObjectMessage copy = (ObjectMessage) MessageCodec.copyForeign(foreign(ObjectMessage.class, inner));
        assertThat(copy.getObject()).isEqualTo(List.of("x"));
    }

    @Test
    void foreignDeliveryCountIsDroppedButOtherJmsxPropertiesKept() throws JMSException {
        MikyuMessage inner = new MikyuMessage();
        inner.setDeliveryAttempt(4);
        inner.setIntProperty("JMSXGroupSeq", 1);
        MikyuMessage copy = MessageCodec.copyForeign(foreign(Message.class, inner));
        assertThat(Collections.list(copy.getPropertyNames())).containsExactly("JMSXGroupSeq");
    }

    @Test
    void copyOfAForeignMessageIsWritable() throws JMSException {
        MikyuTextMessage inner = new MikyuTextMessage("x");
        inner.setReadOnlyBody(true);
        inner.setReadOnlyProperties(true);
        MikyuTextMessage copy = (MikyuTextMessage) MessageCodec.copyForeign(foreign(TextMessage.class, inner));
        copy.setText("y");
        copy.setStringProperty("p", "v");
        assertThat(copy.getText()).isEqualTo("y");
    }

    @Test
    void foreignTopicReplyToEncodesAsTopicText() throws JMSException {
        MikyuMessage inner = new MikyuMessage();
        Topic topic = () -> "news";
        inner.setJMSReplyTo(topic);
        EncodedMessage e = codec.encode(foreign(Message.class, inner));
        Message back = codec.decode(e.headers(), e.payload(), 1);
        assertThat(back.getJMSReplyTo()).isEqualTo(new TestDestinations.TestTopic("news"));
    }

    @Test
    void foreignCorrelationIdAsBytesIsCopied() throws JMSException {
        MikyuMessage inner = new MikyuMessage() {
            @Override
            public String getJMSCorrelationID() {
                return null; // a provider that only keeps the byte form
            }
        };
        inner.setJMSCorrelationIDAsBytes(new byte[] {1, 2});
        MikyuMessage copy = MessageCodec.copyForeign(foreign(Message.class, inner));
        assertThat(copy.getJMSCorrelationIDAsBytes()).containsExactly(1, 2);
        assertThat(copy.isCorrelationIDBytes()).isTrue();
    }
}
