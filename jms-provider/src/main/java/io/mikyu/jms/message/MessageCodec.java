package io.mikyu.jms.message;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Map;
import java.util.Objects;

import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Record;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;

/**
 * Converts JMS messages to and from engine records, as WIRE-FORMAT.md describes: the body is the payload; header
 * fields, the body type and the properties are typed engine headers.
 *
 * <p>{@code JMSDestination}, {@code JMSRedelivered} and {@code JMSXDeliveryCount} are not stored: the record's queue
 * is the destination (pass it to {@link #decode(Headers, byte[], int, Destination)}) and the other two come from
 * the engine's delivery attempt.
 *
 * <p>A record without the body-type header was not written by a JMS producer (an engine-native producer): it decodes
 * as a {@link BytesMessage} of the payload, with each header whose name is a settable property name as a String
 * property (its value read as UTF-8).
 */
public final class MessageCodec {

    public static final String BODY_TYPE = "mikyu.jms.body";
    public static final String NULL_BODY = "mikyu.jms.null";
    /** Marks a consumer's first message of a message group: shown as {@code JMSXGroupFirstForConsumer = true}. */
    public static final String GROUP_FIRST_FOR_CONSUMER = "mikyu.jms.groupFirst";

    public static final String JMS_MESSAGE_ID = "JMSMessageID";
    public static final String JMS_TIMESTAMP = "JMSTimestamp";
    public static final String JMS_CORRELATION_ID = "JMSCorrelationID";
    public static final String JMS_REPLY_TO = "JMSReplyTo";
    public static final String JMS_TYPE = "JMSType";
    public static final String JMS_DELIVERY_MODE = "JMSDeliveryMode";
    public static final String JMS_EXPIRATION = "JMSExpiration";
    public static final String JMS_DELIVERY_TIME = "JMSDeliveryTime";
    public static final String JMS_PRIORITY = "JMSPriority";

    private static final byte[] EMPTY = new byte[0];

    private final DestinationCodec destinations;

    public MessageCodec(DestinationCodec destinations) {
        this.destinations = Objects.requireNonNull(destinations, "destinations");
    }

    // ================================================================ encode

    /**
     * Encodes a message (mikyu's or a foreign one, which is copied first). The message is not changed: a BytesMessage
     * or StreamMessage in write mode stays in write mode.
     */
    public EncodedMessage encode(Message message) throws JMSException {
        MikyuMessage m = message instanceof MikyuMessage own ? own : copyForeign(message);
        Headers.Builder h = Headers.builder();
        if (m.getJMSMessageID() != null) {
            h.add(JMS_MESSAGE_ID, TypedValues.toHeaderValue(m.getJMSMessageID()));
        }
        h.add(JMS_TIMESTAMP, TypedValues.toHeaderValue(m.getJMSTimestamp()));
        if (m.isCorrelationIDBytes()) {
            h.add(JMS_CORRELATION_ID, TypedValues.toHeaderValue(m.getJMSCorrelationIDAsBytes()));
        } else if (m.getJMSCorrelationID() != null) {
            h.add(JMS_CORRELATION_ID, TypedValues.toHeaderValue(m.getJMSCorrelationID()));
        }
        if (m.getJMSReplyTo() != null) {
            h.add(JMS_REPLY_TO, TypedValues.toHeaderValue(destinations.toText(m.getJMSReplyTo())));
        }
        if (m.getJMSType() != null) {
            h.add(JMS_TYPE, TypedValues.toHeaderValue(m.getJMSType()));
        }
        h.add(JMS_DELIVERY_MODE, TypedValues.toHeaderValue(m.getJMSDeliveryMode()));
        h.add(JMS_EXPIRATION, TypedValues.toHeaderValue(m.getJMSExpiration()));
        h.add(JMS_DELIVERY_TIME, TypedValues.toHeaderValue(m.getJMSDeliveryTime()));
        h.add(JMS_PRIORITY, TypedValues.toHeaderValue(m.getJMSPriority()));
        h.add(BODY_TYPE, TypedValues.toHeaderValue(m.bodyType().wireName()));

        byte[] payload = encodeBody(m);
        if (payload == null) {
            h.add(NULL_BODY, TypedValues.toHeaderValue(Boolean.TRUE));
            payload = EMPTY;
        }
        for (Map.Entry<String, Object> p : m.propertyMap().entrySet()) {
            if (!PropertyNames.JMSX_DELIVERY_COUNT.equals(p.getKey())) {
                h.add(p.getKey(), TypedValues.toHeaderValue(p.getValue()));
            }
        }
        MessageGroupHeaders.add(m.propertyMap(), h);
        return new EncodedMessage(payload, h.build(), Math.max(0, Math.min(9, m.getJMSPriority())),
                Math.max(0, m.getJMSDeliveryTime()), Math.max(0, m.getJMSExpiration()),
                Math.max(0, m.getJMSTimestamp()));
    }

    /** The payload, or null for a null text or object body. */
    private static byte[] encodeBody(MikyuMessage m) throws JMSException {
        return switch (m.bodyType()) {
            case MESSAGE -> EMPTY;
            case TEXT -> {
                String text = ((MikyuTextMessage) m).getText();
                yield text == null ? null : text.getBytes(StandardCharsets.UTF_8);
            }
            case BYTES -> ((MikyuBytesMessage) m).bodyBytes();
            case OBJECT -> ((MikyuObjectMessage) m).serializedBody();
            case MAP -> {
                Map<String, Object> map = ((MikyuMapMessage) m).map();
                ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + map.size() * 16);
                DataOutputStream out = new DataOutputStream(bytes);
                try {
                    out.writeInt(map.size());
                    for (Map.Entry<String, Object> e : map.entrySet()) {
                        out.writeUTF(e.getKey());
                        TypedValues.write(out, e.getValue());
                    }
                } catch (UTFDataFormatException e) {
                    throw MikyuBytesMessage.withCause(new MessageFormatException("a MapMessage name is too long"), e);
                } catch (IOException e) {
                    throw MikyuBytesMessage.withCause(new JMSException("cannot encode the MapMessage: " + e), e);
                }
                yield bytes.toByteArray();
            }
            case STREAM -> {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
                DataOutputStream out = new DataOutputStream(bytes);
                try {
                    for (Object value : ((MikyuStreamMessage) m).values()) {
                        TypedValues.write(out, value);
                    }
                } catch (IOException e) {
                    throw MikyuBytesMessage.withCause(new JMSException("cannot encode the StreamMessage: " + e), e);
                }
                yield bytes.toByteArray();
            }
        };
    }

    // ================================================================ decode

    /** Decodes a received task; see {@link #decode(Headers, byte[], int, Destination)}. */
    public MikyuMessage decode(LeasedTask task, Destination destination) throws JMSException {
        return decode(task.headers(), task.payload(), task.attempt(), destination);
    }

    /** Decodes a received log record; see {@link #decode(Headers, byte[], int, Destination)}. */
    public MikyuMessage decode(Record record, int deliveryAttempt, Destination destination) throws JMSException {
        return decode(record.headers(), record.payload(), deliveryAttempt, destination);
    }

    /** Decodes without a JMSDestination; see {@link #decode(Headers, byte[], int, Destination)}. */
    public MikyuMessage decode(Headers headers, byte[] payload, int deliveryAttempt) throws JMSException {
        return decode(headers, payload, deliveryAttempt, null);
    }

    /**
     * Decodes a record into a received message of the stored body type: properties and body read-only (BytesMessage
     * and StreamMessage reset for reading), {@code JMSRedelivered = deliveryAttempt > 1},
     * {@code JMSXDeliveryCount = deliveryAttempt} (absent if the attempt is below 1, e.g. for a browsed record) and
     * {@code JMSDestination = destination}. The payload is not copied and not changed.
     *
     * @throws MessageFormatException if the headers or body are malformed
     */
    public MikyuMessage decode(Headers headers, byte[] payload, int deliveryAttempt, Destination destination)
            throws JMSException {
        Headers h = headers == null ? Headers.EMPTY : headers;
        byte[] body = payload == null ? EMPTY : payload;
        byte[] bodyTypeHeader = h.get(BODY_TYPE);
        MikyuMessage m;
        if (bodyTypeHeader == null) {
            m = decodeNative(h, body);
        } else {
            Object typeName = TypedValues.fromHeaderValue(bodyTypeHeader);
            BodyType type = typeName instanceof String s ? BodyType.fromWireName(s) : null;
            if (type == null) {
                throw new MessageFormatException("unknown JMS body type " + typeName);
            }
            boolean nullBody = h.get(NULL_BODY) != null
                    && TypedValues.asBoolean(TypedValues.fromHeaderValue(h.get(NULL_BODY)));
            m = decodeBody(type, body, nullBody);
            for (Headers.Header header : h.asList()) {
                applyHeader(m, header.name(), header.value());
            }
        }
        m.setJMSDestination(destination);
        m.setDeliveryAttempt(deliveryAttempt);
        m.setReadOnlyProperties(true);
        m.setReadOnlyBody(true);
        return m;
    }

    private void applyHeader(MikyuMessage m, String name, byte[] value) throws JMSException {
        switch (name) {
            case BODY_TYPE, NULL_BODY -> {
            }
            case JMS_MESSAGE_ID -> m.setJMSMessageID(TypedValues.asString(TypedValues.fromHeaderValue(value)));
            case JMS_TIMESTAMP -> m.setJMSTimestamp(TypedValues.asLong(TypedValues.fromHeaderValue(value)));
            case JMS_CORRELATION_ID -> {
                Object id = TypedValues.fromHeaderValue(value);
                if (id instanceof byte[] bytes) {
                    m.setJMSCorrelationIDAsBytes(bytes);
                } else {
                    m.setJMSCorrelationID(TypedValues.asString(id));
                }
            }
            case JMS_REPLY_TO -> {
                String text = TypedValues.asString(TypedValues.fromHeaderValue(value));
                m.setJMSReplyTo(text == null ? null : destinations.fromText(text));
            }
            case JMS_TYPE -> m.setJMSType(TypedValues.asString(TypedValues.fromHeaderValue(value)));
            case JMS_DELIVERY_MODE -> m.setJMSDeliveryMode(TypedValues.asInt(TypedValues.fromHeaderValue(value)));
            case JMS_EXPIRATION -> m.setJMSExpiration(TypedValues.asLong(TypedValues.fromHeaderValue(value)));
            case JMS_DELIVERY_TIME -> m.setJMSDeliveryTime(TypedValues.asLong(TypedValues.fromHeaderValue(value)));
            case JMS_PRIORITY -> m.setJMSPriority(TypedValues.asInt(TypedValues.fromHeaderValue(value)));
            case GROUP_FIRST_FOR_CONSUMER -> m.setPropertyUnchecked(PropertyNames.JMSX_GROUP_FIRST_FOR_CONSUMER, Boolean.TRUE);
            default -> {
                if (name.startsWith("mikyu.") || PropertyNames.JMSX_DELIVERY_COUNT.equals(name)) {
                    return; // provider-internal, or derived from the delivery attempt
                }
                Object v = TypedValues.fromHeaderValue(value);
                if (!TypedValues.isPropertyValue(v)) {
                    throw new MessageFormatException("property " + name + " has a " + TypedValues.typeName(v)
                            + " value");
                }
                m.setPropertyUnchecked(name, v);
            }
        }
    }

    private static MikyuMessage decodeBody(BodyType type, byte[] body, boolean nullBody) throws JMSException {
        switch (type) {
            case MESSAGE:
                return new MikyuMessage();
            case TEXT:
                return new MikyuTextMessage(nullBody ? null : new String(body, StandardCharsets.UTF_8));
            case BYTES: {
                MikyuBytesMessage m = new MikyuBytesMessage();
                m.setBodyBytes(body);
                return m;
            }
            case OBJECT: {
                MikyuObjectMessage m = new MikyuObjectMessage();
                m.setSerializedBody(nullBody || body.length == 0 ? null : body);
                return m;
            }
            case MAP: {
                MikyuMapMessage m = new MikyuMapMessage();
                if (body.length == 0) {
                    return m;
                }
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
                try {
                    int count = in.readInt();
                    if (count < 0) {
                        throw new MessageFormatException("negative MapMessage entry count " + count);
                    }
                    for (int i = 0; i < count; i++) {
                        String name = in.readUTF();
                        m.map().put(name, TypedValues.read(in));
                    }
                    if (in.available() > 0) {
                        throw new MessageFormatException(in.available() + " bytes after the MapMessage entries");
                    }
                } catch (IOException e) {
                    throw malformed("MapMessage", e);
                }
                return m;
            }
            case STREAM: {
                MikyuStreamMessage m = new MikyuStreamMessage();
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
                try {
                    while (in.available() > 0) {
                        m.values().add(TypedValues.read(in));
                    }
                } catch (IOException e) {
                    throw malformed("StreamMessage", e);
                }
                return m;
            }
            default:
                throw new MessageFormatException("unknown body type " + type);
        }
    }

    private static MessageFormatException malformed(String what, IOException e) {
        String reason = e instanceof EOFException ? "truncated" : e.toString();
        return MikyuBytesMessage.withCause(new MessageFormatException("malformed " + what + " body: " + reason), e);
    }

    private static MikyuMessage decodeNative(Headers headers, byte[] body) {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.setBodyBytes(body);
        for (Headers.Header header : headers.asList()) {
            try {
                PropertyNames.checkSettable(header.name());
            } catch (IllegalArgumentException notAPropertyName) {
                continue;
            }
            m.setPropertyUnchecked(header.name(), header.valueAsString());
        }
        return m;
    }

    // ================================================================ foreign messages

    /**
     * Copies a message implemented by another provider into a new, writable mikyu message of the matching type: all
     * header fields, all properties but JMSXDeliveryCount, and the body. A foreign BytesMessage or StreamMessage is
     * {@code reset()} and read to its end (a BytesMessage with {@code readBytes} until -1; its
     * {@code getBodyLength()} is not trusted), so it is left in read-only mode.
     *
     * @throws MessageFormatException if the foreign message holds a property or body value JMS does not allow
     */
    public static MikyuMessage copyForeign(Message foreign) throws JMSException {
        Objects.requireNonNull(foreign, "message");
        MikyuMessage m;
        if (foreign instanceof BytesMessage bytes) {
            // Read to the end rather than trusting getBodyLength(): some implementations (the TCK's own foreign
            // BytesMessage among them) do not keep it up to date.
            MikyuBytesMessage copy = new MikyuBytesMessage();
            bytes.reset();
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            byte[] chunk = new byte[8 * 1024];
            int n;
            while ((n = bytes.readBytes(chunk)) > 0) {
                body.write(chunk, 0, n);
            }
            copy.setBodyBytes(body.toByteArray());
            m = copy;
        } else if (foreign instanceof MapMessage map) {
            MikyuMapMessage copy = new MikyuMapMessage();
            for (Enumeration<?> names = map.getMapNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                Object value = map.getObject(name);
                if (!TypedValues.isBodyValue(value)) {
                    throw new MessageFormatException("MapMessage entry " + name + " has a "
                            + value.getClass().getName() + " value");
                }
                copy.map().put(name, value instanceof byte[] b ? b.clone() : value);
            }
            m = copy;
        } else if (foreign instanceof ObjectMessage object) {
            MikyuObjectMessage copy = new MikyuObjectMessage();
            copy.setObject(object.getObject());
            m = copy;
        } else if (foreign instanceof StreamMessage stream) {
            MikyuStreamMessage copy = new MikyuStreamMessage();
            stream.reset();
            while (true) {
                Object value;
                try {
                    value = stream.readObject();
                } catch (MessageEOFException end) {
                    break;
                }
                if (!TypedValues.isBodyValue(value)) {
                    throw new MessageFormatException("StreamMessage value of type " + value.getClass().getName());
                }
                copy.values().add(value instanceof byte[] b ? b.clone() : value);
            }
            m = copy;
        } else if (foreign instanceof TextMessage text) {
            m = new MikyuTextMessage(text.getText());
        } else {
            m = new MikyuMessage();
        }
        copyHeaders(foreign, m);
        for (Enumeration<?> names = foreign.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            if (PropertyNames.JMSX_DELIVERY_COUNT.equals(name)) {
                continue;
            }
            Object value = foreign.getObjectProperty(name);
            if (!TypedValues.isPropertyValue(value)) {
                throw new MessageFormatException("property " + name + " has a " + value.getClass().getName()
                        + " value");
            }
            m.setPropertyUnchecked(name, value);
        }
        return m;
    }

    private static void copyHeaders(Message from, MikyuMessage to) throws JMSException {
        to.setJMSMessageID(from.getJMSMessageID());
        to.setJMSTimestamp(from.getJMSTimestamp());
        String correlationId = from.getJMSCorrelationID();
        if (correlationId != null) {
            to.setJMSCorrelationID(correlationId);
        } else {
            byte[] bytes;
            try {
                bytes = from.getJMSCorrelationIDAsBytes();
            } catch (JMSException | RuntimeException unsupported) {
                bytes = null; // byte[] correlation IDs are optional
            }
            if (bytes != null) {
                to.setJMSCorrelationIDAsBytes(bytes);
            }
        }
        to.setJMSReplyTo(from.getJMSReplyTo());
        to.setJMSDestination(from.getJMSDestination());
        to.setJMSDeliveryMode(from.getJMSDeliveryMode());
        to.setJMSRedelivered(from.getJMSRedelivered());
        to.setJMSType(from.getJMSType());
        to.setJMSExpiration(from.getJMSExpiration());
        long deliveryTime;
        try {
            deliveryTime = from.getJMSDeliveryTime();
        } catch (JMSException | RuntimeException | AbstractMethodError notSupported) {
            deliveryTime = 0; // a JMS 1.1 era implementation
        }
        to.setJMSDeliveryTime(deliveryTime);
        to.setJMSPriority(from.getJMSPriority());
    }
}
