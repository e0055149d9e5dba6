package io.mikyu.junit5;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.TaskCounts;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.TextMessage;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongPredicate;

/**
 * The test's queues at hand: send and receive one message, count what a queue and its dead-letter queue hold, browse
 * them, and wait until a queue is drained or messages reached its dead-letter queue. Injectable as a parameter or
 * {@link InjectMikyu} field; for JMS queues (a JMS queue {@code orders} is the task queue {@code orders}, its dead
 * letters {@code orders/dlq}).
 *
 * <p>Sends and receives go through a JMS connection of its own on the store ({@code vm://}, with the test's options
 * and {@code prefetch=0}, so that a receive takes one message and nothing else), received messages acknowledged.
 * Waits end at a deadline ({@link MikyuExtension.Builder#timeout(Duration)}, 30 s unless set) and fail the test with
 * an {@link AssertionFailedError} that says what the queue held. Thread-safe.
 */
public final class MikyuQueues {

    /** How often a wait looks at the counts again. */
    private static final long POLL_NANOS = Duration.ofMillis(10).toNanos();

    private final Mikyu engine;
    private final MikyuConnectionFactory factory;
    private final Duration timeout;
    private JMSContext jms;
    private boolean closed;

    MikyuQueues(Mikyu engine, MikyuConnectionFactory factory, Duration timeout) {
        this.engine = engine;
        this.factory = factory;
        this.timeout = timeout;
    }

    /**
     * How long the waits without a duration of their own wait.
     *
     * @return the deadline of {@link #receive(String)}, {@link #awaitDrained(String)} and
     *         {@link #awaitDeadLetters(String, long)}
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Sends a PERSISTENT text message to the queue (made if it does not exist).
     *
     * @param queue the JMS queue's name
     * @param text  the message's body
     * @return the message sent, with its {@code JMSMessageID}
     */
    public TextMessage send(String queue, String text) {
        return send(queue, text, Map.of());
    }

    /**
     * Sends a PERSISTENT text message with properties.
     *
     * @param queue      the JMS queue's name
     * @param text       the message's body
     * @param properties message properties, of the types {@code Message.setObjectProperty} takes
     * @return the message sent, with its {@code JMSMessageID}
     */
    public synchronized TextMessage send(String queue, String text, Map<String, ?> properties) {
        JMSContext context = context();
        TextMessage message = context.createTextMessage(text);
        try {
            for (Map.Entry<String, ?> p : properties.entrySet()) {
                message.setObjectProperty(p.getKey(), p.getValue());
            }
        } catch (JMSException e) {
            throw new IllegalArgumentException("cannot set the property: " + e.getMessage(), e);
        }
        context.createProducer().send(context.createQueue(queue), message);
        return message;
    }

    /**
     * Receives (and acknowledges) the next message of the queue, waiting up to {@link #timeout()}.
     *
     * @param queue the JMS queue's name
     * @return the message
     * @throws AssertionFailedError if none came in time
     */
    public Message receive(String queue) {
        return receive(queue, timeout);
    }

    /**
     * Receives (and acknowledges) the next message of the queue, waiting up to {@code wait}.
     *
     * @param queue the JMS queue's name
     * @param wait  how long to wait for it
     * @return the message
     * @throws AssertionFailedError if none came in time
     */
    public Message receive(String queue, Duration wait) {
        Message message = take(queue, Math.max(1, wait.toMillis()));
        if (message == null) {
            throw new AssertionFailedError("no message on queue '" + queue + "' within " + wait + "; "
                    + describe(queue));
        }
        return message;
    }

    /**
     * Receives (and acknowledges) the next message of the queue if there is one now.
     *
     * @param queue the JMS queue's name
     * @return the message, or {@code null} if none is ready
     */
    public Message receiveNoWait(String queue) {
        return take(queue, 0);
    }

    private synchronized Message take(String queue, long millis) {
        JMSContext context = context();
        try (JMSConsumer consumer = context.createConsumer(context.createQueue(queue))) {
            return millis == 0 ? consumer.receiveNoWait() : consumer.receive(millis);
        }
    }

    /**
     * The messages of the queue not yet consumed: ready, waiting for their delivery time or redelivery, and delivered
     * but not yet acknowledged.
     *
     * @param queue the JMS queue's name
     * @return how many messages it holds
     * @throws IllegalArgumentException if there is no such queue
     */
    public long depth(String queue) {
        return counts(queue).depth();
    }

    /**
     * The messages in the queue's dead-letter queue ({@code <queue>/dlq}): those delivered {@code maxAttempts}
     * times without being acknowledged.
     *
     * @param queue the JMS queue's name (not its dead-letter queue's)
     * @return how many messages its dead-letter queue holds
     * @throws IllegalArgumentException if there is no such queue
     */
    public long deadLetterDepth(String queue) {
        return counts(deadLetterQueue(queue)).depth();
    }

    /**
     * The queue's counts by state.
     *
     * @param queue the JMS queue's name, or a dead-letter queue's ({@code orders/dlq})
     * @return its ready, scheduled and in-flight messages
     * @throws IllegalArgumentException if there is no such queue
     */
    public TaskCounts counts(String queue) {
        try {
            return engine.taskQueue(queue).counts();
        } catch (QueueNotFoundException e) {
            throw new IllegalArgumentException("no queue '" + queue + "' in the test store; it has "
                    + engine.list(QueueKind.TASK), e);
        }
    }

    /**
     * The messages ready in the queue, in delivery order, left where they are.
     *
     * @param queue the JMS queue's name
     * @return the messages
     */
    public List<Message> browse(String queue) {
        return browseQueue(queue);
    }

    /**
     * The messages in the queue's dead-letter queue, left where they are.
     *
     * @param queue the JMS queue's name (not its dead-letter queue's)
     * @return the messages of {@code <queue>/dlq}
     */
    public List<Message> browseDeadLetters(String queue) {
        return browseQueue(deadLetterQueue(queue));
    }

    private synchronized List<Message> browseQueue(String queue) {
        JMSContext context = context();
        try (QueueBrowser browser = context.createBrowser(context.createQueue(queue))) {
            List<Message> messages = new ArrayList<>();
            for (Enumeration<?> e = browser.getEnumeration(); e.hasMoreElements(); ) {
                messages.add((Message) e.nextElement());
            }
            return Collections.unmodifiableList(messages);
        } catch (JMSException e) {
            throw new JMSRuntimeException("cannot browse queue '" + queue + "': " + e.getMessage(), e.getErrorCode(), e);
        }
    }

    /**
     * Waits until the queue exists and holds nothing ({@link #depth(String)} is 0), up to {@link #timeout()}: for
     * instance until a listener under test has consumed what the test sent.
     *
     * @param queue the JMS queue's name
     * @throws AssertionFailedError if it is not drained in time
     */
    public void awaitDrained(String queue) {
        awaitDrained(queue, timeout);
    }

    /**
     * As {@link #awaitDrained(String)}, waiting up to {@code wait}.
     *
     * @param queue the JMS queue's name
     * @param wait  how long to wait
     * @throws AssertionFailedError if it is not drained in time
     */
    public void awaitDrained(String queue, Duration wait) {
        await(queue, queue, depth -> depth == 0, "to be drained", wait);
    }

    /**
     * Waits until the queue's dead-letter queue holds at least {@code count} messages, up to {@link #timeout()}.
     *
     * @param queue the JMS queue's name (not its dead-letter queue's)
     * @param count how many dead letters to wait for
     * @throws AssertionFailedError if they are not there in time
     */
    public void awaitDeadLetters(String queue, long count) {
        awaitDeadLetters(queue, count, timeout);
    }

    /**
     * As {@link #awaitDeadLetters(String, long)}, waiting up to {@code wait}.
     *
     * @param queue the JMS queue's name (not its dead-letter queue's)
     * @param count how many dead letters to wait for
     * @param wait  how long to wait
     * @throws AssertionFailedError if they are not there in time
     */
    public void awaitDeadLetters(String queue, long count, Duration wait) {
        await(queue, deadLetterQueue(queue), depth -> depth >= count, "to hold " + count + " dead letters", wait);
    }

    private void await(String queue, String counted, LongPredicate done, String what, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            if (exists(counted) && done.test(engine.taskQueue(counted).counts().depth())) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionFailedError("waited " + wait + " for queue '" + queue + "' " + what + "; "
                        + describe(queue));
            }
            LockSupport.parkNanos(POLL_NANOS);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new AssertionFailedError("interrupted while waiting for queue '" + queue + "' " + what);
            }
        }
    }

    private boolean exists(String queue) {
        try {
            engine.taskQueue(queue);
            return true;
        } catch (QueueNotFoundException e) {
            return false;
        }
    }

    /** What a queue holds, for failure messages. */
    private String describe(String queue) {
        if (!exists(queue)) {
            return "there is no such queue; the store has " + engine.list(QueueKind.TASK);
        }
        TaskCounts c = engine.taskQueue(queue).counts();
        String dlq = deadLetterQueue(queue);
        String dead = exists(dlq) ? "; " + engine.taskQueue(dlq).counts().depth() + " in " + dlq : "";
        return "it holds " + c.ready() + " ready, " + c.scheduled() + " scheduled, " + c.inFlight() + " in flight"
                + dead;
    }

    private static String deadLetterQueue(String queue) {
        return queue + "/dlq";
    }

    private JMSContext context() {
        if (closed) {
            throw new IllegalStateException("the test store is closed");
        }
        if (jms == null) {
            jms = factory.createContext();
        }
        return jms;
    }

    synchronized void close() {
        closed = true;
        if (jms != null) {
            jms.close();
            jms = null;
        }
    }
}
