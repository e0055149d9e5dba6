package io.mikyu.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import org.junit.jupiter.api.Test;

class TextAndObjectMessageTest {

    static final class Holder implements Serializable {
        private static final long serialVersionUID = 1L;
        final List<String> items = new ArrayList<>();
    }

    static final class NotSerializableInside implements Serializable {
        private static final long serialVersionUID = 1L;
        @SuppressWarnings("unused")
        private final Object inner = new Object();
    }

    @Test
    void textIsSetReadAndCleared() throws JMSException {
        MikyuTextMessage m = new MikyuTextMessage();
        assertThat(m.getText()).isNull();
        m.setText("hello");
        assertThat(m.getText()).isEqualTo("hello");
        m.setText(null);
        assertThat(m.getText()).isNull();
        m.setText("again");
        m.clearBody();
        assertThat(m.getText()).isNull();
    }

    @Test
    void readOnlyTextRejectsSetTextUntilCleared() throws JMSException {
        MikyuTextMessage m = new MikyuTextMessage("x");
        m.setStringProperty("p", "v");
        m.setReadOnlyBody(true);
        assertThatThrownBy(() -> m.setText("y")).isInstanceOf(MessageNotWriteableException.class);
        assertThat(m.getText()).isEqualTo("x");
        m.clearBody();
        m.setText("y");
        assertThat(m.getText()).isEqualTo("y");
        assertThat(m.getStringProperty("p")).isEqualTo("v");
    }

    @Test
    void objectIsSerializedWhenSetSoLaterChangesDoNotLeakIn() throws JMSException {
        MikyuObjectMessage m = new MikyuObjectMessage();
        Holder holder = new Holder();
        holder.items.add("a");
        m.setObject(holder);
        holder.items.add("b");
        assertThat(((Holder) m.getObject()).items).containsExactly("a");
    }

    @Test
    void getObjectReturnsAFreshCopyEachTime() throws JMSException {
        MikyuObjectMessage m = new MikyuObjectMessage();
        Holder holder = new Holder();
        m.setObject(holder);
        Holder first = (Holder) m.getObject();
        first.items.add("changed");
        Holder second = (Holder) m.getObject();
        assertThat(second).isNotSameAs(first);
        assertThat(second.items).isEmpty();
    }

    @Test
    void objectThatCannotBeSerializedThrowsMessageFormatException() {
        MikyuObjectMessage m = new MikyuObjectMessage();
        assertThatThrownBy(() -> m.setObject(new NotSerializableInside()))
                .isInstanceOf(MessageFormatException.class);
    }

    @Test
    void bodyThatCannotBeDeserializedThrowsMessageFormatException() {
        MikyuObjectMessage m = new MikyuObjectMessage();
        m.setSerializedBody(new byte[] {1, 2, 3});
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void nullObjectIsAllowedAndClearBodyRemovesTheObject() throws JMSException {
        MikyuObjectMessage m = new MikyuObjectMessage();
        m.setObject(null);
        assertThat(m.getObject()).isNull();
        m.setObject("s");
        m.clearBody();
        assertThat(m.getObject()).isNull();
    }

    @Test
    void readOnlyObjectRejectsSetObjectUntilCleared() throws JMSException {
        MikyuObjectMessage m = new MikyuObjectMessage();
        m.setObject("x");
        m.setReadOnlyBody(true);
        assertThatThrownBy(() -> m.setObject("y")).isInstanceOf(MessageNotWriteableException.class);
        m.clearBody();
        m.setObject("y");
        assertThat(m.getObject()).isEqualTo("y");
    }
}
