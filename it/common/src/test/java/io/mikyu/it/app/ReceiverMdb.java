package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Takes the test queue's messages through the resource adapter's inbound side and records their bodies. */
@MessageDriven(name = "ReceiverMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Names.QUEUE),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class ReceiverMdb implements MessageListener {

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
