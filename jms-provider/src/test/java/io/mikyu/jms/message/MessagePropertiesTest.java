package io.mikyu.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Message properties: Table 3-2 conversions, nulls, names, read-only rules, enumeration and clearing. */
class MessagePropertiesTest {

    private static final String NAME = "prop";

    static Stream<Arguments> propertyConversionMatrix() {
        return ValueKind.matrix(ValueKind.PROPERTY_KINDS).stream();
    }

    static void setTyped(Message m, ValueKind kind, String name) throws JMSException {
        Object v = kind.sample;
        switch (kind) {
            case BOOLEAN -> m.setBooleanProperty(name, (Boolean) v);
            case BYTE -> m.setByteProperty(name, (Byte) v);
            case SHORT -> m.setShortProperty(name, (Short) v);
            case INT -> m.setIntProperty(name, (Integer) v);
            case LONG -> m.setLongProperty(name, (Long) v);
            case FLOAT -> m.setFloatProperty(name, (Float) v);
            case DOUBLE -> m.setDoubleProperty(name, (Double) v);
            case STRING -> m.setStringProperty(name, (String) v);
            default -> throw new IllegalArgumentException(kind.name());
        }
    }

    static Object getTyped(Message m, ValueKind kind, String name) throws JMSException {
        return switch (kind) {
            case BOOLEAN -> m.getBooleanProperty(name);
            case BYTE -> m.getByteProperty(name);
            case SHORT -> m.getShortProperty(name);
            case INT -> m.getIntProperty(name);
            case LONG -> m.getLongProperty(name);
            case FLOAT -> m.getFloatProperty(name);
            case DOUBLE -> m.getDoubleProperty(name);
            case STRING -> m.getStringProperty(name);
            default -> throw new IllegalArgumentException(kind.name());
        };
    }

    @ParameterizedTest(name = "{0} read as {1}: allowed={2}")
    @MethodSource("propertyConversionMatrix")
    void propertySetWithTypedSetterConvertsPerTable32(ValueKind source, ValueKind target, boolean allowed)
            throws JMSException {
        MikyuMessage m = new MikyuMessage();
        setTyped(m, source, NAME);
        if (allowed) {
            assertThat(getTyped(m, target, NAME)).isEqualTo(source.expectedAs(target));
        } else {
            assertThatThrownBy(() -> getTyped(m, target, NAME)).isInstanceOf(MessageFormatException.class);
        }
    }

    @ParameterizedTest(name = "{0} read as {1}: allowed={2}")
    @MethodSource("propertyConversionMatrix")
    void propertySetAsObjectConvertsTheSameWay(ValueKind source, ValueKind target, boolean allowed)
            throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setObjectProperty(NAME, source.sample);
        assertThat(m.getObjectProperty(NAME)).isEqualTo(source.sample);
        if (allowed) {
            assertThat(getTyped(m, target, NAME)).isEqualTo(source.expectedAs(target));
        } else {
            assertThatThrownBy(() -> getTyped(m, target, NAME)).isInstanceOf(MessageFormatException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ValueKind.class, names = {"BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE"})
    void unparsableStringReadAsNumberThrowsNumberFormatException(ValueKind target) throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setStringProperty(NAME, "not a number");
        assertThatThrownBy(() -> getTyped(m, target, NAME)).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void stringReadAsBooleanFollowsBooleanValueOf() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setStringProperty("a", "TRUE");
        m.setStringProperty("b", "yes");
        assertThat(m.getBooleanProperty("a")).isTrue();
        assertThat(m.getBooleanProperty("b")).isFalse();
    }

    @Test
    void outOfRangeStringReadAsByteThrowsNumberFormatException() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setStringProperty(NAME, "300");
        assertThatThrownBy(() -> m.getByteProperty(NAME)).isInstanceOf(NumberFormatException.class);
        assertThat(m.getShortProperty(NAME)).isEqualTo((short) 300);
    }

    @Test
    void absentPropertyReadsAsIfNullPerValueOfOfNull() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        assertThat(m.propertyExists("missing")).isFalse();
        assertThat(m.getBooleanProperty("missing")).isFalse();
        assertThatThrownBy(() -> m.getByteProperty("missing")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getShortProperty("missing")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getIntProperty("missing")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getLongProperty("missing")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getFloatProperty("missing")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> m.getDoubleProperty("missing")).isInstanceOf(NullPointerException.class);
        assertThat(m.getStringProperty("missing")).isNull();
        assertThat(m.getObjectProperty("missing")).isNull();
    }

    @Test
    void nullValuedPropertyExistsAndReadsAsNull() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setStringProperty("s", null);
        m.setObjectProperty("o", null);
        assertThat(m.propertyExists("s")).isTrue();
        assertThat(m.propertyExists("o")).isTrue();
        assertThat(m.getStringProperty("s")).isNull();
        assertThat(m.getObjectProperty("o")).isNull();
        assertThatThrownBy(() -> m.getIntProperty("s")).isInstanceOf(NumberFormatException.class);
        assertThat(Collections.list(m.getPropertyNames())).containsExactly("s", "o");
    }

    @Test
    void setObjectPropertyRejectsTypesOutsideTheObjectifiedPrimitivesAndString() {
        MikyuMessage m = new MikyuMessage();
        for (Object bad : List.of(new Object(), 'c', new byte[] {1}, new StringBuilder("x"), List.of())) {
            assertThatThrownBy(() -> m.setObjectProperty(NAME, bad))
                    .as(bad.getClass().getName())
                    .isInstanceOf(MessageFormatException.class);
        }
        assertThat(m.propertyExists(NAME)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = ValueKind.class, names = {"BOOLEAN", "BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE",
            "STRING"})
    void nullOrEmptyNameIsRejectedByEverySetter(ValueKind kind) {
        MikyuMessage m = new MikyuMessage();
        assertThatThrownBy(() -> setTyped(m, kind, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> setTyped(m, kind, "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.setObjectProperty("", kind.sample)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.setObjectProperty(null, kind.sample))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1abc", "a-b", "a b", "a.b", "NULL", "true", "False", "NOT", "and", "Or", "BETWEEN",
            "like", "IN", "is", "ESCAPE", "JMSXDeliveryCount", "JMSXUserID", "JMSXAppID", "JMSXFoo", "JMS_mikyu_x",
            "JMSType", "JMSMessageID", "JMSCorrelationID", "JMSDeliveryMode", "JMSPriority", "JMSTimestamp",
            "JMSReplyTo", "JMSDestination", "JMSRedelivered", "JMSExpiration", "JMSDeliveryTime"})
    void invalidOrReservedNameIsRejected(String name) {
        MikyuMessage m = new MikyuMessage();
        assertThatThrownBy(() -> m.setStringProperty(name, "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.setIntProperty(name, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(m.propertyExists(name)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"JMSXGroupID", "JMSXGroupSeq", "JMSCONTEXT", "_x", "$y", "caf\u00e9", "a1_b2", "nullable",
            "Order"})
    void validNameIsAccepted(String name) throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setStringProperty(name, "v");
        assertThat(m.getStringProperty(name)).isEqualTo("v");
    }

    @Test
    void receivedPropertiesAreReadOnlyUntilCleared() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setIntProperty("kept", 1);
        m.setReadOnlyProperties(true);

        for (ValueKind kind : ValueKind.PROPERTY_KINDS) {
            assertThatThrownBy(() -> setTyped(m, kind, "other"))
                    .as(kind.name()).isInstanceOf(MessageNotWriteableException.class);
        }
        assertThatThrownBy(() -> m.setObjectProperty("other", 1)).isInstanceOf(MessageNotWriteableException.class);
        assertThat(m.getIntProperty("kept")).isEqualTo(1);

        m.clearProperties();
        assertThat(m.getPropertyNames().hasMoreElements()).isFalse();
        assertThat(m.getObjectProperty("kept")).isNull();
        m.setIntProperty("other", 2);
        assertThat(m.getIntProperty("other")).isEqualTo(2);
    }

    @Test
    void readOnlyPropertiesDoNotMakeHeadersOrBodyReadOnly() throws JMSException {
        MikyuTextMessage m = new MikyuTextMessage();
        m.setReadOnlyProperties(true);
        m.setJMSType("t");
        m.setJMSCorrelationID("c");
        m.setText("body");
        assertThat(m.getJMSType()).isEqualTo("t");
        assertThat(m.getText()).isEqualTo("body");
    }

    @Test
    void getPropertyNamesListsPropertiesIncludingProviderSetJmsxButNoHeaderFields() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setJMSType("type");
        m.setJMSCorrelationID("corr");
        m.setStringProperty("a", "1");
        m.setIntProperty("JMSXGroupSeq", 3);
        m.setStringProperty("JMSXGroupID", "g");
        m.setDeliveryAttempt(2);

        assertThat(Collections.list(m.getPropertyNames()))
                .containsExactlyInAnyOrder("a", "JMSXGroupSeq", "JMSXGroupID", "JMSXDeliveryCount");
        assertThat(m.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
        assertThat(m.propertyExists("JMSXDeliveryCount")).isTrue();
        assertThat(m.getJMSRedelivered()).isTrue();
    }

    @Test
    void propertyEnumerationIsASnapshot() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setStringProperty("a", "1");
        var names = m.getPropertyNames();
        m.setStringProperty("b", "2");
        assertThat(Collections.list(names)).containsExactly("a");
    }

    @Test
    void deliveryAttemptSetsRedeliveredAndCountEvenWhenPropertiesAreReadOnly() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setReadOnlyProperties(true);
        m.setDeliveryAttempt(1);
        assertThat(m.getJMSRedelivered()).isFalse();
        assertThat(m.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
        m.setDeliveryAttempt(3);
        assertThat(m.getJMSRedelivered()).isTrue();
        assertThat(m.getObjectProperty("JMSXDeliveryCount")).isEqualTo(3);
        m.setDeliveryAttempt(0);
        assertThat(m.getJMSRedelivered()).isFalse();
        assertThat(m.propertyExists("JMSXDeliveryCount")).isFalse();
    }

    @Test
    void clearPropertiesKeepsHeadersAndBody() throws JMSException {
        MikyuTextMessage m = new MikyuTextMessage("body");
        m.setJMSType("t");
        m.setStringProperty("a", "1");
        m.clearProperties();
        assertThat(m.getText()).isEqualTo("body");
        assertThat(m.getJMSType()).isEqualTo("t");
        assertThat(m.propertyExists("a")).isFalse();
    }

    @Test
    void settingAPropertyAgainReplacesItsValueAndType() throws JMSException {
        MikyuMessage m = new MikyuMessage();
        m.setIntProperty(NAME, 1);
        m.setStringProperty(NAME, "x");
        assertThat(m.getObjectProperty(NAME)).isEqualTo("x");
        assertThatCode(() -> m.getStringProperty(NAME)).doesNotThrowAnyException();
        assertThat(Collections.list(m.getPropertyNames())).containsExactly(NAME);
    }
}
