package io.mikyu.jms.message;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;

/**
 * mikyu's {@link ObjectMessage}. The object is serialized when set (so later changes to it do not change the message)
 * and deserialized on every {@link #getObject()} (so each caller gets its own copy). Classes are resolved with the
 * thread context class loader first, then the default. Deserialization is subject to the JVM-wide serialization
 * filter ({@code jdk.serialFilter}), which is where an application restricts which classes may be read.
 */
public class MikyuObjectMessage extends MikyuMessage implements ObjectMessage {

    private byte[] serialized;

    public MikyuObjectMessage() {
    }

    @Override
    public BodyType bodyType() {
        return BodyType.OBJECT;
    }

    /** @throws MessageFormatException if serialization fails */
    @Override
    public void setObject(Serializable object) throws JMSException {
        checkBodyWritable();
        serialized = object == null ? null : serialize(object);
    }

    /** @throws MessageFormatException if deserialization fails */
    @Override
    public Serializable getObject() throws JMSException {
        return serialized == null ? null : deserialize(serialized);
    }

    @Override
    public void clearBody() throws JMSException {
        super.clearBody();
        serialized = null;
    }

    /** The serialized object, or null; not copied. For the codec. */
    byte[] serializedBody() {
        return serialized;
    }

    /** Sets the serialized form directly (not copied, not checked until read). For the codec. */
    void setSerializedBody(byte[] bytes) {
        serialized = bytes;
    }

    // ================================================================ getBody

    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        Serializable object = getObject();
        if (object == null) {
            return null;
        }
        if (c == null || !c.isInstance(object)) {
            throw new MessageFormatException("the ObjectMessage body, a " + object.getClass().getName()
                    + ", cannot be assigned to " + (c == null ? "null" : c.getName()));
        }
        return c.cast(object);
    }

    /** True without a body; false if the body cannot be deserialized. */
    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) throws JMSException {
        if (serialized == null) {
            return true;
        }
        Serializable object;
        try {
            object = deserialize(serialized);
        } catch (MessageFormatException e) {
            return false;
        }
        return c != null && c.isInstance(object);
    }

    // ================================================================ serialization

    static byte[] serialize(Serializable object) throws MessageFormatException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        } catch (IOException | RuntimeException e) {
            throw MikyuBytesMessage.withCause(
                    new MessageFormatException("cannot serialize the " + object.getClass().getName() + ": " + e), e);
        }
        return bytes.toByteArray();
    }

    static Serializable deserialize(byte[] bytes) throws MessageFormatException {
        try (ObjectInputStream in = new ContextClassLoaderObjectInputStream(new ByteArrayInputStream(bytes))) {
            Object object = in.readObject();
            if (object != null && !(object instanceof Serializable)) {
                throw new MessageFormatException("the body is not Serializable: " + object.getClass().getName());
            }
            return (Serializable) object;
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            throw MikyuBytesMessage.withCause(new MessageFormatException("cannot deserialize the body: " + e), e);
        }
    }

    private static final class ContextClassLoaderObjectInputStream extends ObjectInputStream {

        ContextClassLoaderObjectInputStream(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            if (loader != null) {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    // fall back to the default resolution
                }
            }
            return super.resolveClass(desc);
        }
    }
}
