package io.mikyu.jms.message;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.Topic;

/** A test DestinationCodec with minimal Queue and Topic classes, and a way to make "foreign" messages. */
final class TestDestinations implements DestinationCodec {

    static final TestDestinations CODEC = new TestDestinations();

    record TestQueue(String name) implements Queue {
        @Override
        public String getQueueName() {
            return name;
        }
    }

    record TestTopic(String name) implements Topic {
        @Override
        public String getTopicName() {
            return name;
        }
    }

    @Override
    public Destination fromText(String text) throws InvalidDestinationException {
        if (text.startsWith(QUEUE_PREFIX)) {
            return new TestQueue(text.substring(QUEUE_PREFIX.length()));
        }
        if (text.startsWith(TOPIC_PREFIX)) {
            return new TestTopic(text.substring(TOPIC_PREFIX.length()));
        }
        throw new InvalidDestinationException("not a destination: " + text);
    }

    static MessageCodec codec() {
        return new MessageCodec(CODEC);
    }

    /**
     * A message of another implementation class: a dynamic proxy implementing only {@code iface} that delegates to
     * {@code delegate}. It is not a MikyuMessage, so the codec must treat it as foreign.
     */
    static <T extends Message> T foreign(Class<T> iface, T delegate) {
        InvocationHandler handler = (proxy, method, args) -> {
            try {
                return method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return iface.cast(Proxy.newProxyInstance(TestDestinations.class.getClassLoader(), new Class<?>[] {iface},
                handler));
    }
}
