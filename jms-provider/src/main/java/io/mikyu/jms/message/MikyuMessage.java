package io.mikyu.jms.message;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;

/**
 * mikyu's {@link Message}: header fields, properties with the specification's conversions, read-only state and the
 * acknowledger callback. Also the body-less message that {@code Session.createMessage()} returns.
 *
 * <p>Provider-side methods (not part of the JMS API) are {@link #setAcknowledger}, {@link #setReadOnlyProperties},
 * {@link #setReadOnlyBody}, {@link #setDeliveryAttempt} and {@link #bodyType}. Not thread-safe, like any JMS message.
 */
public class MikyuMessage implements Message {

    private String messageId;
    private long timestamp;
    private String correlationId;
    private byte[] correlationIdBytes;
    private Destination replyTo;
    private Destination destination;
    private int deliveryMode = DeliveryMode.PERSISTENT;
    private boolean redelivered;
    private String type;
    private long expiration;
    private long deliveryTime;
    private int priority = Message.DEFAULT_PRIORITY;

    private final Map<String, Object> properties = new LinkedHashMap<>();
    private boolean propertiesReadOnly;
    private boolean bodyReadOnly;
    private MessageAcknowledger acknowledger;

    public MikyuMessage() {
    }

    /** The body kind, as stored in the header {@code mikyu.jms.body}. */
    public BodyType bodyType() {
        return BodyType.MESSAGE;
    }

    // ================================================================ header fields

    @Override
    public String getJMSMessageID() {
        return messageId;
    }

    @Override
    public void setJMSMessageID(String id) {
        this.messageId = id;
    }

    @Override
    public long getJMSTimestamp() {
        return timestamp;
    }

    @Override
    public void setJMSTimestamp(long timestamp) {
        this.timestamp = timestamp;
    }

    /**
     * The correlation ID as bytes: a copy of the bytes if it was set as bytes, the UTF-8 encoding of the String if it
     * was set as a String, or {@code null}.
     */
    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        if (correlationIdBytes != null) {
            return correlationIdBytes.clone();
        }
        return correlationId == null ? null : correlationId.getBytes(StandardCharsets.UTF_8);
    }

    /** Sets the correlation ID as bytes (a copy is kept); replaces a String correlation ID. */
    @Override
    public void setJMSCorrelationIDAsBytes(byte[] correlationID) {
        this.correlationIdBytes = correlationID == null ? null : correlationID.clone();
        this.correlationId = null;
    }

    /** Sets the correlation ID as a String; replaces a byte[] correlation ID. */
    @Override
    public void setJMSCorrelationID(String correlationID) {
        this.correlationId = correlationID;
        this.correlationIdBytes = null;
    }

    /** The correlation ID; one set as bytes reads as those bytes decoded as UTF-8. */
    @Override
    public String getJMSCorrelationID() {
        if (correlationIdBytes != null) {
            return new String(correlationIdBytes, StandardCharsets.UTF_8);
        }
        return correlationId;
    }

    /** Whether the correlation ID was set as bytes (it is then stored with tag X). */
    public boolean isCorrelationIDBytes() {
        return correlationIdBytes != null;
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }

    @Override
    public void setJMSReplyTo(Destination replyTo) {
        this.replyTo = replyTo;
    }

    @Override
    public Destination getJMSDestination() {
        return destination;
    }

    @Override
    public void setJMSDestination(Destination destination) {
        this.destination = destination;
    }

    @Override
    public int getJMSDeliveryMode() {
        return deliveryMode;
    }

    @Override
    public void setJMSDeliveryMode(int deliveryMode) {
        this.deliveryMode = deliveryMode;
    }

    @Override
    public boolean getJMSRedelivered() {
        return redelivered;
    }

    @Override
    public void setJMSRedelivered(boolean redelivered) {
        this.redelivered = redelivered;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public void setJMSType(String type) {
        this.type = type;
    }

    @Override
    public long getJMSExpiration() {
        return expiration;
    }

    @Override
    public void setJMSExpiration(long expiration) {
        this.expiration = expiration;
    }

    @Override
    public long getJMSDeliveryTime() {
        return deliveryTime;
    }

    @Override
    public void setJMSDeliveryTime(long deliveryTime) {
        this.deliveryTime = deliveryTime;
    }

    @Override
    public int getJMSPriority() {
        return priority;
    }

    @Override
    public void setJMSPriority(int priority) {
        this.priority = priority;
    }

    // ================================================================ properties

    /** Clears all properties (JMSX ones included) and makes them writable again. */
    @Override
    public void clearProperties() {
        properties.clear();
        propertiesReadOnly = false;
    }

    @Override
    public boolean propertyExists(String name) {
        return name != null && properties.containsKey(name);
    }

    @Override
    public boolean getBooleanProperty(String name) throws JMSException {
        return TypedValues.asBoolean(properties.get(name));
    }

    @Override
    public byte getByteProperty(String name) throws JMSException {
        return TypedValues.asByte(properties.get(name));
    }

    @Override
    public short getShortProperty(String name) throws JMSException {
        return TypedValues.asShort(properties.get(name));
    }

    @Override
    public int getIntProperty(String name) throws JMSException {
        return TypedValues.asInt(properties.get(name));
    }

    @Override
    public long getLongProperty(String name) throws JMSException {
        return TypedValues.asLong(properties.get(name));
    }

    @Override
    public float getFloatProperty(String name) throws JMSException {
        return TypedValues.asFloat(properties.get(name));
    }

    @Override
    public double getDoubleProperty(String name) throws JMSException {
        return TypedValues.asDouble(properties.get(name));
    }

    @Override
    public String getStringProperty(String name) throws JMSException {
        return TypedValues.asString(properties.get(name));
    }

    @Override
    public Object getObjectProperty(String name) {
        return properties.get(name);
    }

    /** The property names, JMSX properties set by the provider (such as JMSXDeliveryCount) included. */
    @Override
    public Enumeration<String> getPropertyNames() {
        return Collections.enumeration(new ArrayList<>(properties.keySet()));
    }

    @Override
    public void setBooleanProperty(String name, boolean value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setByteProperty(String name, byte value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setShortProperty(String name, short value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setIntProperty(String name, int value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setLongProperty(String name, long value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setFloatProperty(String name, float value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setDoubleProperty(String name, double value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setStringProperty(String name, String value) throws JMSException {
        putProperty(name, value);
    }

    /** Accepts null, Boolean, Byte, Short, Integer, Long, Float, Double and String; anything else is invalid. */
    @Override
    public void setObjectProperty(String name, Object value) throws JMSException {
        PropertyNames.checkSettable(name);
        if (!TypedValues.isPropertyValue(value)) {
            throw new MessageFormatException("invalid property value type " + value.getClass().getName()
                    + " for " + name + ": only Boolean, Byte, Short, Integer, Long, Float, Double and String");
        }
        checkPropertiesWritable();
        properties.put(name, value);
    }

    private void putProperty(String name, Object value) throws MessageNotWriteableException {
        PropertyNames.checkSettable(name);
        checkPropertiesWritable();
        properties.put(name, value);
    }

    private void checkPropertiesWritable() throws MessageNotWriteableException {
        if (propertiesReadOnly) {
            throw new MessageNotWriteableException("the message properties are read-only; call clearProperties()");
        }
    }

    /** Sets a property without name or read-only checks: for the provider (decoding, foreign copies, JMSX). */
    void setPropertyUnchecked(String name, Object value) {
        properties.put(name, value);
    }

    /** The live property map, in insertion order; for the codec. */
    Map<String, Object> propertyMap() {
        return properties;
    }

    // ================================================================ provider state

    /**
     * Sets the provider-derived delivery state: {@code JMSXDeliveryCount = attempt} and
     * {@code JMSRedelivered = attempt > 1}. An attempt below 1 (not delivered yet, e.g. browsed) removes
     * JMSXDeliveryCount and clears JMSRedelivered. Works on read-only properties.
     */
    public void setDeliveryAttempt(int attempt) {
        if (attempt >= 1) {
            properties.put(PropertyNames.JMSX_DELIVERY_COUNT, attempt);
        } else {
            properties.remove(PropertyNames.JMSX_DELIVERY_COUNT);
        }
        redelivered = attempt > 1;
    }

    public void setAcknowledger(MessageAcknowledger acknowledger) {
        this.acknowledger = acknowledger;
    }

    public MessageAcknowledger getAcknowledger() {
        return acknowledger;
    }

    /** Makes the properties read-only (as on receive) or writable. */
    public void setReadOnlyProperties(boolean readOnly) {
        this.propertiesReadOnly = readOnly;
    }

    public boolean isReadOnlyProperties() {
        return propertiesReadOnly;
    }

    /**
     * Makes the body read-only (as on receive) or writable. For BytesMessage and StreamMessage, read-only means read
     * mode positioned at the start (what {@code reset()} does); writable means write mode, appending to the body.
     */
    public void setReadOnlyBody(boolean readOnly) {
        this.bodyReadOnly = readOnly;
    }

    public boolean isReadOnlyBody() {
        return bodyReadOnly;
    }

    /** @throws MessageNotWriteableException if the body is read-only */
    protected final void checkBodyWritable() throws MessageNotWriteableException {
        if (bodyReadOnly) {
            throw new MessageNotWriteableException("the message body is read-only; call clearBody()");
        }
    }

    // ================================================================ acknowledge and body

    /** Delegates to the acknowledger the session set; ignored when there is none. */
    @Override
    public void acknowledge() throws JMSException {
        MessageAcknowledger ack = acknowledger;
        if (ack != null) {
            ack.acknowledge(this);
        }
    }

    /** Empties the body and makes it writable; header fields and properties stay. */
    @Override
    public void clearBody() throws JMSException {
        bodyReadOnly = false;
    }

    /**
     * The body as {@code c}. A message without a body returns {@code null} for any type; otherwise {@code c} must be
     * the body's class or a supertype of it, else {@link MessageFormatException}.
     */
    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        if (hasNoBody()) {
            return null;
        }
        if (c == null || !canAssignBodyTo(c)) {
            throw new MessageFormatException("the body of a " + bodyType().wireName() + " message cannot be assigned to "
                    + (c == null ? "null" : c.getName()));
        }
        return c.cast(bodyValue());
    }

    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) throws JMSException {
        if (hasNoBody()) {
            return true;
        }
        return c != null && canAssignBodyTo(c);
    }

    /** Whether the message has no body (then getBody returns null for any type). */
    protected boolean hasNoBody() throws JMSException {
        return true;
    }

    /** Whether a present body can be returned as {@code c}. */
    protected boolean canAssignBodyTo(Class<?> c) throws JMSException {
        return false;
    }

    /** The present body as returned by getBody (a copy where the body is mutable). */
    protected Object bodyValue() throws JMSException {
        return null;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[id=" + messageId + ", destination=" + destination + ", properties="
                + properties.keySet() + "]";
    }
}
