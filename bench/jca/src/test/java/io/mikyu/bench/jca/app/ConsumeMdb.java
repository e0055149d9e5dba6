package io.mikyu.bench.jca.app;

import jakarta.ejb.EJB;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The message-driven bean both sides run: reads each message's body and counts it. It carries no annotation of
 * its own: each side's deployment declares it in {@code ejb-jar.xml} (container-managed transaction, Required,
 * the side's queue) and binds it to the side's resource adapter in {@code jboss-ejb3.xml} (ConsumerArchive).
 */
public class ConsumeMdb implements MessageListener {

    @EJB
    private Consumption consumption;

    @Override
    public void onMessage(Message message) {
        try {
            consumption.record(message.getBody(byte[].class).length, message.getJMSRedelivered());
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
