package io.mikyu.jms.context;

import java.io.Serializable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;

import io.mikyu.jms.message.MikyuBytesMessage;
import io.mikyu.jms.message.MikyuMapMessage;
import io.mikyu.jms.message.MikyuMessage;
import io.mikyu.jms.message.MikyuObjectMessage;
import io.mikyu.jms.message.MikyuStreamMessage;
import io.mikyu.jms.message.MikyuTextMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

/**
 * A stand-in for the classic API, just enough to test the simplified API's own logic until the real connection
 * lands: it records the calls made on it, creates real mikyu messages, and consumers hand out the messages queued
 * in {@link #incoming} (AUTO_ACKNOWLEDGE: consumed on receive; CLIENT_ACKNOWLEDGE: kept as unacknowledged until
 * {@code acknowledge}, given back by {@code recover}).
 */
final class FakeClassic {

    /** Calls in order, as "connection.start", "session.recover", "message.acknowledge" and so on. */
    final List<String> calls = new ArrayList<>();
    /** What the consumers deliver next, first first. */
    final Deque<Message> incoming = new ArrayDeque<>();
    final List<Sent> sent = new ArrayList<>();
    final Connection connection;
    /** Whether consumers implement {@link ConditionalReceiver}. */
    private final boolean conditional;
    private final List<Message> unacked = new ArrayList<>();
    private int sessionMode = -1;
    private String clientID;
    private boolean used;
    MessageListener listener;

    record Sent(Destination destination, Message message, int deliveryMode, int priority, long timeToLive,
                long deliveryDelay, CompletionListener completionListener) {
    }

    FakeClassic(boolean conditional) {
        this.conditional = conditional;
        this.connection = proxy(Connection.class, (name, args) -> {
            calls.add("connection." + name);
            return switch (name) {
                case "createSession" -> {
                    used = true;
                    sessionMode = (int) args[0];
                    yield session();
                }
                case "setClientID" -> {
                    if (used || clientID != null) {
                        throw new IllegalStateException("too late to set the client ID");
                    }
                    clientID = (String) args[0];
                    yield null;
                }
                case "getClientID" -> clientID;
                default -> null;
            };
        });
    }

    /** Queues a message as if received: read-only, acknowledged through this fake. */
    MikyuMessage queue(MikyuMessage message) {
        message.setReadOnlyProperties(true);
        message.setReadOnlyBody(true);
        message.setAcknowledger(m -> {
            calls.add("message.acknowledge");
            unacked.clear();
        });
        incoming.add(message);
        return message;
    }

    private Session session() {
        return proxy(Session.class, (name, args) -> {
            calls.add("session." + name);
            return switch (name) {
                case "createTextMessage" -> args == null ? new MikyuTextMessage() : new MikyuTextMessage((String) args[0]);
                case "createBytesMessage" -> new MikyuBytesMessage();
                case "createMapMessage" -> new MikyuMapMessage();
                case "createStreamMessage" -> new MikyuStreamMessage();
                case "createMessage" -> new MikyuMessage();
                case "createObjectMessage" -> {
                    MikyuObjectMessage message = new MikyuObjectMessage();
                    if (args != null) {
                        message.setObject((Serializable) args[0]);
                    }
                    yield message;
                }
                case "createProducer" -> producer();
                case "createConsumer", "createDurableConsumer", "createSharedConsumer",
                        "createSharedDurableConsumer" -> consumer();
                case "recover" -> {
                    for (int i = unacked.size() - 1; i >= 0; i--) {
                        incoming.addFirst(unacked.get(i));
                    }
                    unacked.clear();
                    yield null;
                }
                default -> null;
            };
        });
    }

    private MessageProducer producer() {
        long[] deliveryDelay = {0};
        return proxy(MessageProducer.class, (name, args) -> {
            calls.add("producer." + name);
            switch (name) {
                case "setDeliveryDelay" -> deliveryDelay[0] = (long) args[0];
                case "send" -> sent.add(new Sent((Destination) args[0], (Message) args[1], (int) args[2],
                        (int) args[3], (long) args[4], deliveryDelay[0],
                        args.length > 5 ? (CompletionListener) args[5] : null));
                default -> {
                }
            }
            return null;
        });
    }

    private MessageConsumer consumer() {
        Handler handler = (name, args) -> {
            calls.add("consumer." + name);
            return switch (name) {
                case "receive", "receiveNoWait" -> {
                    Message next = incoming.peekFirst();
                    if (next == null) {
                        yield null;
                    }
                    if (args != null && args.length == 2) {
                        @SuppressWarnings("unchecked")
                        Predicate<Message> accept = (Predicate<Message>) args[1];
                        if (!accept.test(next) && sessionMode == JMSContext.AUTO_ACKNOWLEDGE) {
                            yield next;
                        }
                    }
                    incoming.removeFirst();
                    if (sessionMode == JMSContext.CLIENT_ACKNOWLEDGE) {
                        unacked.add(next);
                    }
                    yield next;
                }
                case "setMessageListener" -> {
                    listener = (MessageListener) args[0];
                    yield null;
                }
                default -> null;
            };
        };
        return conditional
                ? proxy(MessageConsumer.class, handler, ConditionalReceiver.class)
                : proxy(MessageConsumer.class, handler);
    }

    @FunctionalInterface
    private interface Handler {
        Object handle(String method, Object[] args) throws Exception;
    }

    private static <T> T proxy(Class<T> type, Handler handler, Class<?>... more) {
        Class<?>[] types = new Class<?>[more.length + 1];
        types[0] = type;
        System.arraycopy(more, 0, types, 1, more.length);
        Object proxy = Proxy.newProxyInstance(FakeClassic.class.getClassLoader(), types, (self, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> self == args[0];
                    case "hashCode" -> System.identityHashCode(self);
                    default -> type.getSimpleName() + " fake";
                };
            }
            try {
                Object result = handler.handle(method.getName(), args);
                if (result == null && method.getReturnType() == boolean.class) {
                    return false;
                }
                return result;
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
        return type.cast(proxy);
    }
}
