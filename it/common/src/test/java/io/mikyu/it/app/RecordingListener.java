package io.mikyu.it.app;

import jakarta.ejb.EJB;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The message-driven bean's work: record each body it receives. Each server's module declares the bean
 * ({@code ReceiverMdb}), since how the queue is named to the adapter is the server's.
 */
public abstract class RecordingListener implements MessageListener {

    @EJB
    private Receipts receipts;

    @Override
    public void onMessage(Message message) {
        try {
            receipts.record(message.getBody(String.class));
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
