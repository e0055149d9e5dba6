package io.mikyu.jms.message;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;

/**
 * mikyu's {@link MapMessage}. Reads convert per the specification's Table 3-7; an unset name reads as a null value.
 * Names must be non-empty (any string otherwise). byte[] values are copied in and out. An empty map is "no body".
 */
public class MikyuMapMessage extends MikyuMessage implements MapMessage {

    private final Map<String, Object> map = new LinkedHashMap<>();

    public MikyuMapMessage() {
    }

    @Override
    public BodyType bodyType() {
        return BodyType.MAP;
    }

    /** The live map (byte[] values are the message's own arrays). For the codec. */
    Map<String, Object> map() {
        return map;
    }

    @Override
    public void clearBody() throws JMSException {
        super.clearBody();
        map.clear();
    }

    // ================================================================ reading

    @Override
    public boolean getBoolean(String name) throws JMSException {
        return TypedValues.asBoolean(map.get(name));
    }

    @Override
    public byte getByte(String name) throws JMSException {
        return TypedValues.asByte(map.get(name));
    }

    @Override
    public short getShort(String name) throws JMSException {
        return TypedValues.asShort(map.get(name));
    }

    @Override
    public char getChar(String name) throws JMSException {
        return TypedValues.asChar(map.get(name));
    }

    @Override
    public int getInt(String name) throws JMSException {
        return TypedValues.asInt(map.get(name));
    }

    @Override
    public long getLong(String name) throws JMSException {
        return TypedValues.asLong(map.get(name));
    }

    @Override
    public float getFloat(String name) throws JMSException {
        return TypedValues.asFloat(map.get(name));
    }

    @Override
    public double getDouble(String name) throws JMSException {
        return TypedValues.asDouble(map.get(name));
    }

    @Override
    public String getString(String name) throws JMSException {
        return TypedValues.asString(map.get(name));
    }

    @Override
    public byte[] getBytes(String name) throws JMSException {
        return TypedValues.asBytes(map.get(name));
    }

    /** The value as its object type (Character for char, a copy for byte[]), or null. */
    @Override
    public Object getObject(String name) {
        Object value = map.get(name);
        return value instanceof byte[] b ? b.clone() : value;
    }

    @Override
    public Enumeration<String> getMapNames() {
        return Collections.enumeration(new ArrayList<>(map.keySet()));
    }

    @Override
    public boolean itemExists(String name) {
        return name != null && map.containsKey(name);
    }

    // ================================================================ writing

    private void put(String name, Object value) throws JMSException {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a MapMessage name must not be null or empty");
        }
        checkBodyWritable();
        map.put(name, value);
    }

    @Override
    public void setBoolean(String name, boolean value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setByte(String name, byte value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setShort(String name, short value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setChar(String name, char value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setInt(String name, int value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setLong(String name, long value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setFloat(String name, float value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setDouble(String name, double value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setString(String name, String value) throws JMSException {
        put(name, value);
    }

    /** Sets a copy of {@code value}; a null array sets a null value. */
    @Override
    public void setBytes(String name, byte[] value) throws JMSException {
        put(name, value == null ? null : value.clone());
    }

    @Override
    public void setBytes(String name, byte[] value, int offset, int length) throws JMSException {
        if (offset < 0 || length < 0 || offset > value.length - length) {
            throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + " for an array of "
                    + value.length);
        }
        put(name, TypedValues.copy(value, offset, length));
    }

    /** Sets null, a Boolean, Byte, Short, Character, Integer, Long, Float, Double, String or byte[] (copied). */
    @Override
    public void setObject(String name, Object value) throws JMSException {
        if (!TypedValues.isBodyValue(value)) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("a MapMessage name must not be null or empty");
            }
            throw new MessageFormatException("cannot set a " + value.getClass().getName() + " in a MapMessage");
        }
        put(name, value instanceof byte[] b ? b.clone() : value);
    }

    // ================================================================ getBody

    @Override
    protected boolean hasNoBody() {
        return map.isEmpty();
    }

    /** Only Map (or Object) is allowed, as the specification states for MapMessage. */
    @Override
    protected boolean canAssignBodyTo(Class<?> c) {
        return c.isAssignableFrom(Map.class);
    }

    /** A new, independent map; byte[] values are copies. */
    @Override
    protected Object bodyValue() {
        Map<String, Object> copy = new LinkedHashMap<>(map.size() * 2);
        map.forEach((k, v) -> copy.put(k, v instanceof byte[] b ? b.clone() : v));
        return copy;
    }
}
