package io.mikyu.jms.context;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.mikyu.jms.message.PropertyNames;
import io.mikyu.jms.message.TypedValues;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageProducer;

/**
 * mikyu's {@link JMSProducer}: send options, headers and properties kept here and applied to each message sent
 * through its context's anonymous classic producer. Properties follow the rules of message properties: names as
 * {@link PropertyNames#checkSettable}, values and conversions as {@link TypedValues} (so a missing property reads as
 * {@code Message.getXxxProperty} reads one: false, {@link NumberFormatException}, {@link NullPointerException} or
 * null). Not thread-safe, like its context.
 */
final class MikyuJMSProducer implements JMSProducer {

    private final MikyuJMSContext context;

    private int deliveryMode = DeliveryMode.PERSISTENT;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;
    private boolean disableMessageID;
    private boolean disableMessageTimestamp;
    private CompletionListener completionListener;

    /** At most one of the two is set: the last setJMSCorrelationID or setJMSCorrelationIDAsBytes wins. */
    private String correlationID;
    private byte[] correlationIDBytes;
    private String type;
    private Destination replyTo;
    private final Map<String, Object> properties = new LinkedHashMap<>();

    MikyuJMSProducer(MikyuJMSContext context) {
        this.context = context;
    }

    // ================================================================ send

    @Override
    public JMSProducer send(Destination destination, Message message) {
        if (message == null) {
            throw new MessageFormatRuntimeException("the message is null");
        }
        return send(destination, () -> message);
    }

    /** A null body sends a TextMessage without text. */
    @Override
    public JMSProducer send(Destination destination, String body) {
        return send(destination, () -> context.session().createTextMessage(body));
    }

    /** A null body sends a MapMessage without entries; a value that is not a map value type is refused. */
    @Override
    public JMSProducer send(Destination destination, Map<String, Object> body) {
        return send(destination, () -> {
            MapMessage message = context.session().createMapMessage();
            if (body != null) {
                for (Map.Entry<String, Object> entry : body.entrySet()) {
                    message.setObject(entry.getKey(), entry.getValue());
                }
            }
            return message;
        });
    }

    /** A null body sends an empty BytesMessage. */
    @Override
    public JMSProducer send(Destination destination, byte[] body) {
        return send(destination, () -> {
            BytesMessage message = context.session().createBytesMessage();
            if (body != null) {
                message.writeBytes(body);
            }
            return message;
        });
    }

    /** A null body sends an ObjectMessage without an object. */
    @Override
    public JMSProducer send(Destination destination, Serializable body) {
        return send(destination, () -> context.session().createObjectMessage(body));
    }

    private interface MessageSource {
        Message create() throws JMSException;
    }

    private JMSProducer send(Destination destination, MessageSource source) {
        context.checkOpen();
        if (destination == null) {
            throw new InvalidDestinationRuntimeException("the destination is null");
        }
        try {
            Message message = source.create();
            applyTo(message);
            MessageProducer producer = context.classicProducer();
            // The classic producer is shared by the context's JMSProducers: set this one's options on every send.
            producer.setDisableMessageID(disableMessageID);
            producer.setDisableMessageTimestamp(disableMessageTimestamp);
            producer.setDeliveryDelay(deliveryDelay);
            if (completionListener == null) {
                producer.send(destination, message, deliveryMode, priority, timeToLive);
            } else {
                producer.send(destination, message, deliveryMode, priority, timeToLive,
                        ContextCallbacks.completingTo(context, completionListener));
            }
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
        return this;
    }

    /**
     * Headers and properties set here override the message's own. A received message has read-only properties, so
     * sending it with properties set here fails with MessageNotWriteableException, as the javadoc of send says.
     */
    private void applyTo(Message message) throws JMSException {
        if (correlationIDBytes != null) {
            message.setJMSCorrelationIDAsBytes(correlationIDBytes);
        } else if (correlationID != null) {
            message.setJMSCorrelationID(correlationID);
        }
        if (type != null) {
            message.setJMSType(type);
        }
        if (replyTo != null) {
            message.setJMSReplyTo(replyTo);
        }
        for (Map.Entry<String, Object> property : properties.entrySet()) {
            message.setObjectProperty(property.getKey(), property.getValue());
        }
    }

    // ================================================================ send options

    @Override
    public JMSProducer setDisableMessageID(boolean value) {
        disableMessageID = value;
        return this;
    }

    @Override
    public boolean getDisableMessageID() {
        return disableMessageID;
    }

    @Override
    public JMSProducer setDisableMessageTimestamp(boolean value) {
        disableMessageTimestamp = value;
        return this;
    }

    @Override
    public boolean getDisableMessageTimestamp() {
        return disableMessageTimestamp;
    }

    /** @throws JMSRuntimeException unless PERSISTENT or NON_PERSISTENT */
    @Override
    public JMSProducer setDeliveryMode(int deliveryMode) {
        if (deliveryMode != DeliveryMode.PERSISTENT && deliveryMode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSRuntimeException("invalid delivery mode " + deliveryMode
                    + ": expected DeliveryMode.PERSISTENT (2) or DeliveryMode.NON_PERSISTENT (1)");
        }
        this.deliveryMode = deliveryMode;
        return this;
    }

    @Override
    public int getDeliveryMode() {
        return deliveryMode;
    }

    /** @throws JMSRuntimeException unless 0 to 9 */
    @Override
    public JMSProducer setPriority(int priority) {
        if (priority < 0 || priority > 9) {
            throw new JMSRuntimeException("invalid priority " + priority + ": expected 0 to 9");
        }
        this.priority = priority;
        return this;
    }

    @Override
    public int getPriority() {
        return priority;
    }

    @Override
    public JMSProducer setTimeToLive(long timeToLive) {
        this.timeToLive = timeToLive;
        return this;
    }

    @Override
    public long getTimeToLive() {
        return timeToLive;
    }

    @Override
    public JMSProducer setDeliveryDelay(long deliveryDelay) {
        this.deliveryDelay = deliveryDelay;
        return this;
    }

    @Override
    public long getDeliveryDelay() {
        return deliveryDelay;
    }

    @Override
    public JMSProducer setAsync(CompletionListener completionListener) {
        this.completionListener = completionListener;
        return this;
    }

    @Override
    public CompletionListener getAsync() {
        return completionListener;
    }

    // ================================================================ properties

    @Override
    public JMSProducer setProperty(String name, boolean value) {
        return putProperty(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, byte value) {
        return putProperty(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, short value) {
        return putProperty(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, int value) {
        return putProperty(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, long value) {
        return putProperty(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, float value) {
        return putProperty(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, double value) {
        return putProperty(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, String value) {
        return putProperty(name, value);
    }

    /**
     * @throws IllegalArgumentException      if the name is null, empty or not a valid property name
     * @throws MessageFormatRuntimeException unless the value is null, a boxed primitive other than Character, or a
     *                                       String
     */
    @Override
    public JMSProducer setProperty(String name, Object value) {
        PropertyNames.checkSettable(name);
        if (!TypedValues.isPropertyValue(value)) {
            throw new MessageFormatRuntimeException("invalid property value type " + value.getClass().getName()
                    + " for " + name + ": only Boolean, Byte, Short, Integer, Long, Float, Double and String");
        }
        properties.put(name, value);
        return this;
    }

    /** Checked as a message checks it when the property is set, not later when a message is sent. */
    private JMSProducer putProperty(String name, Object value) {
        PropertyNames.checkSettable(name);
        properties.put(name, value);
        return this;
    }

    @Override
    public JMSProducer clearProperties() {
        properties.clear();
        return this;
    }

    @Override
    public boolean propertyExists(String name) {
        return name != null && properties.containsKey(name);
    }

    @Override
    public boolean getBooleanProperty(String name) {
        try {
            return TypedValues.asBoolean(properties.get(name));
        } catch (MessageFormatException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public byte getByteProperty(String name) {
        try {
            return TypedValues.asByte(properties.get(name));
        } catch (MessageFormatException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public short getShortProperty(String name) {
        try {
            return TypedValues.asShort(properties.get(name));
        } catch (MessageFormatException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public int getIntProperty(String name) {
        try {
            return TypedValues.asInt(properties.get(name));
        } catch (MessageFormatException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public long getLongProperty(String name) {
        try {
            return TypedValues.asLong(properties.get(name));
        } catch (MessageFormatException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public float getFloatProperty(String name) {
        try {
            return TypedValues.asFloat(properties.get(name));
        } catch (MessageFormatException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public double getDoubleProperty(String name) {
        try {
            return TypedValues.asDouble(properties.get(name));
        } catch (MessageFormatException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public String getStringProperty(String name) {
        try {
            return TypedValues.asString(properties.get(name));
        } catch (MessageFormatException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public Object getObjectProperty(String name) {
        return properties.get(name);
    }

    /** A read-only view that follows later changes, as the javadoc asks. */
    @Override
    public Set<String> getPropertyNames() {
        return Collections.unmodifiableSet(properties.keySet());
    }

    // ================================================================ headers

    /** The bytes are copied. */
    @Override
    public JMSProducer setJMSCorrelationIDAsBytes(byte[] correlationID) {
        this.correlationIDBytes = correlationID == null ? null : correlationID.clone();
        this.correlationID = null;
        return this;
    }

    /** A copy of the bytes set, or the UTF-8 bytes of a String correlation ID, or null. */
    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        if (correlationIDBytes != null) {
            return correlationIDBytes.clone();
        }
        return correlationID == null ? null : correlationID.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public JMSProducer setJMSCorrelationID(String correlationID) {
        this.correlationID = correlationID;
        this.correlationIDBytes = null;
        return this;
    }

    /** The String set, or bytes set decoded as UTF-8 (as {@code MikyuMessage} reads them), or null. */
    @Override
    public String getJMSCorrelationID() {
        if (correlationIDBytes != null) {
            return new String(correlationIDBytes, StandardCharsets.UTF_8);
        }
        return correlationID;
    }

    @Override
    public JMSProducer setJMSType(String type) {
        this.type = type;
        return this;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public JMSProducer setJMSReplyTo(Destination replyTo) {
        this.replyTo = replyTo;
        return this;
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }
}
