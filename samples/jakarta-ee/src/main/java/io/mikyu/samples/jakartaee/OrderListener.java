package io.mikyu.samples.jakartaee;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Receives the orders queue through mikyu's resource adapter (WEB-INF/jboss-ejb3.xml names it for WildFly). Each
 * delivery runs in a container-managed transaction: should {@code onMessage} throw, the message comes again.
 * {@code connectionFactoryLookup} makes the bean connect where the servlet's pool does.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destination", propertyValue = Orders.QUEUE),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "connectionFactoryLookup", propertyValue = Orders.CONNECTION_FACTORY)})
public class OrderListener implements MessageListener {

    @EJB
    private ReceivedOrders received;

    @Override
    public void onMessage(Message message) {
        try {
            received.add(message.getBody(String.class));
        } catch (JMSException e) {
            throw new IllegalStateException("an order that is no text message", e);
        }
    }
}
