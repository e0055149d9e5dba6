package io.mikyu.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import org.junit.jupiter.api.Test;

/** Message.getBody(Class) and isBodyAssignableTo(Class), Jakarta Messaging 3.1 semantics. */
class GetBodyTest {

    @Test
    void plainMessageReturnsNullForAnyType() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        assertThat(m.getBody(String.class)).isNull();
        assertThat(m.getBody(Integer.class)).isNull();
        assertThat(m.isBodyAssignableTo(Integer.class)).isTrue();
        assertThat(m.isBodyAssignableTo(byte[].class)).isTrue();
    }

    @Test
    void textBodyIsAssignableToStringAndItsSupertypesOnly() throws JMSException {
        MikyuTextMessage m = new MikyuTextMessage("hello");
        assertThat(m.getBody(String.class)).isEqualTo("hello");
        assertThat(m.getBody(CharSequence.class)).isEqualTo("hello");
        assertThat(m.getBody(Object.class)).isEqualTo("hello");
        assertThat(m.getBody(Serializable.class)).isEqualTo("hello");
        assertThat(m.isBodyAssignableTo(String.class)).isTrue();
        assertThat(m.isBodyAssignableTo(Boolean.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(Boolean.class)).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.getBody(StringBuilder.class)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void emptyBodiesReturnNullForAnyType() throws JMSException {
        MikyuMessage[] empties = {new MikyuTextMessage(), new MikyuObjectMessage(), new MikyuMapMessage(),
                new MikyuBytesMessage()};
        for (MikyuMessage m : empties) {
            assertThat(m.getBody(Boolean.class)).as(m.bodyType().name()).isNull();
            assertThat(m.isBodyAssignableTo(Boolean.class)).as(m.bodyType().name()).isTrue();
        }
    }

    @Test
    void objectBodyIsAssignableToItsClassAndSupertypes() throws JMSException {
        MikyuObjectMessage m = new MikyuObjectMessage();
        m.setObject(new StringBuffer("sb"));
        assertThat(m.getBody(StringBuffer.class)).hasToString("sb");
        assertThat(m.getBody(CharSequence.class)).hasToString("sb");
        assertThat(m.getBody(Serializable.class)).hasToString("sb");
        assertThat(m.isBodyAssignableTo(StringBuffer.class)).isTrue();
        assertThat(m.isBodyAssignableTo(Boolean.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(HashMap.class)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void objectBodyThatCannotBeDeserializedIsNotAssignableAndGetBodyThrows() throws JMSException {
        MikyuObjectMessage m = new MikyuObjectMessage();
        m.setSerializedBody(new byte[] {(byte) 0xAC, (byte) 0xED, 0, 5, 0x73});
        assertThat(m.isBodyAssignableTo(Object.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(Object.class)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void mapBodyIsAssignableToMapOrObjectOnlyAndIsACopy() throws JMSException {
        MikyuMapMessage m = new MikyuMapMessage();
        m.setBoolean("booleanvalue", true);
        m.setInt("intvalue", 10);
        m.setBytes("bytes", new byte[] {1});
        @SuppressWarnings("unchecked")
        Map<String, Object> body = m.getBody(Map.class);
        assertThat(body).containsEntry("booleanvalue", true).containsEntry("intvalue", 10).hasSize(3);
        body.put("added", 1);
        ((byte[]) body.get("bytes"))[0] = 9;
        assertThat(m.itemExists("added")).isFalse();
        assertThat(m.getBytes("bytes")).containsExactly(1);
        assertThat(m.getBody(Object.class)).isInstanceOf(Map.class);
        assertThat(m.isBodyAssignableTo(Map.class)).isTrue();
        assertThat(m.isBodyAssignableTo(String.class)).isFalse();
        assertThat(m.isBodyAssignableTo(HashMap.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(String.class)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void bytesBodyIsAssignableToByteArrayAndIsACopyInEitherMode() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeByte((byte) 1);
        m.writeInt(22);
        assertThatThrownBy(() -> m.getBody(StringBuffer.class)).isInstanceOf(MessageFormatException.class);
        assertThat(m.getBody(byte[].class)).containsExactly(1, 0, 0, 0, 22);
        assertThat(m.isReadOnlyBody()).isFalse(); // still writable
        m.writeByte((byte) 2);

        m.reset();
        byte[] body = m.getBody(byte[].class);
        assertThat(body).containsExactly(1, 0, 0, 0, 22, 2);
        body[0] = 9;
        assertThat((byte[]) m.getBody(Object.class)).startsWith(1);
        assertThat(m.isBodyAssignableTo(byte[].class)).isTrue();
        assertThat(m.isBodyAssignableTo(String.class)).isFalse();
    }

    @Test
    void bytesGetBodyResetsTheReadPosition() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeInt(7);
        m.reset();
        m.readByte();
        m.getBody(byte[].class);
        assertThat(m.readInt()).isEqualTo(7);
    }

    @Test
    void streamMessageGetBodyAlwaysThrowsAndIsNeverAssignable() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        assertThatThrownBy(() -> m.getBody(Object.class)).isInstanceOf(MessageFormatException.class);
        assertThat(m.isBodyAssignableTo(Object.class)).isFalse();
        m.writeInt(1);
        assertThatThrownBy(() -> m.getBody(HashMap.class)).isInstanceOf(MessageFormatException.class);
        assertThat(m.isBodyAssignableTo(Object.class)).isFalse();
    }
}
