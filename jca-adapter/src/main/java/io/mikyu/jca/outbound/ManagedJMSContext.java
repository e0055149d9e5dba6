package io.mikyu.jca.outbound;

import jakarta.jms.BytesMessage;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;

import java.io.Serializable;

/**
 * The JMSContext of a pooled connection factory: the provider's context over a {@link ConnectionHandle}, whose
 * classic objects enforce Jakarta Messaging 3.1 §12 (their exceptions come out as the runtime variants). One more
 * rule is the context's own: {@code createContext} would make a second session on the connection, so it throws
 * (§12.2). Closing the context closes the handle, which gives the connection back to the pool.
 */
final class ManagedJMSContext implements JMSContext {

    private final JMSContext context;
    private final ConnectionHandle handle;

    ManagedJMSContext(JMSContext context, ConnectionHandle handle) {
        this.context = context;
        this.handle = handle;
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        context.getAutoStart(); // a closed context says so first
        throw new IllegalStateRuntimeException("JMSContext.createContext is not allowed in a Jakarta EE container "
                + "(Jakarta Messaging 3.1 §12.2): it would make a second session on the connection; use the "
                + "connection factory's createContext");
    }

    /** In the container's transaction the context is transacted by it, whatever mode it was made with. */
    @Override
    public boolean getTransacted() {
        return getSessionMode() == SESSION_TRANSACTED;
    }

    @Override
    public int getSessionMode() {
        int mode = context.getSessionMode();
        return handle.managedConnection().transactions().inContainerTransaction() ? SESSION_TRANSACTED : mode;
    }

    // ------------------------------------------------------------------------------------------------ delegated

    @Override
    public JMSProducer createProducer() {
        return context.createProducer();
    }

    @Override
    public String getClientID() {
        return context.getClientID();
    }

    @Override
    public void setClientID(String clientID) {
        context.setClientID(clientID);
    }

    @Override
    public ConnectionMetaData getMetaData() {
        return context.getMetaData();
    }

    @Override
    public ExceptionListener getExceptionListener() {
        return context.getExceptionListener();
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        context.setExceptionListener(listener);
    }

    @Override
    public void start() {
        context.start();
    }

    @Override
    public void stop() {
        context.stop();
    }

    @Override
    public void setAutoStart(boolean autoStart) {
        context.setAutoStart(autoStart);
    }

    @Override
    public boolean getAutoStart() {
        return context.getAutoStart();
    }

    @Override
    public void close() {
        context.close();
    }

    @Override
    public BytesMessage createBytesMessage() {
        return context.createBytesMessage();
    }

    @Override
    public MapMessage createMapMessage() {
        return context.createMapMessage();
    }

    @Override
    public Message createMessage() {
        return context.createMessage();
    }

    @Override
    public ObjectMessage createObjectMessage() {
        return context.createObjectMessage();
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        return context.createObjectMessage(object);
    }

    @Override
    public StreamMessage createStreamMessage() {
        return context.createStreamMessage();
    }

    @Override
    public TextMessage createTextMessage() {
        return context.createTextMessage();
    }

    @Override
    public TextMessage createTextMessage(String text) {
        return context.createTextMessage(text);
    }

    @Override
    public void commit() {
        context.commit();
    }

    @Override
    public void rollback() {
        context.rollback();
    }

    @Override
    public void recover() {
        context.recover();
    }

    @Override
    public JMSConsumer createConsumer(Destination destination) {
        return context.createConsumer(destination);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector) {
        return context.createConsumer(destination, messageSelector);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal) {
        return context.createConsumer(destination, messageSelector, noLocal);
    }

    @Override
    public Queue createQueue(String queueName) {
        return context.createQueue(queueName);
    }

    @Override
    public Topic createTopic(String topicName) {
        return context.createTopic(topicName);
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        return context.createDurableConsumer(topic, name);
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        return context.createDurableConsumer(topic, name, messageSelector, noLocal);
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        return context.createSharedDurableConsumer(topic, name);
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        return context.createSharedDurableConsumer(topic, name, messageSelector);
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        return context.createSharedConsumer(topic, sharedSubscriptionName);
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector) {
        return context.createSharedConsumer(topic, sharedSubscriptionName, messageSelector);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) {
        return context.createBrowser(queue);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        return context.createBrowser(queue, messageSelector);
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        return context.createTemporaryQueue();
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        return context.createTemporaryTopic();
    }

    @Override
    public void unsubscribe(String name) {
        context.unsubscribe(name);
    }

    @Override
    public void acknowledge() {
        context.acknowledge();
    }

    @Override
    public String toString() {
        return "ManagedJMSContext[" + handle + "]";
    }
}
