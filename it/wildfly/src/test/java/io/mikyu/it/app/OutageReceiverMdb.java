package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * The outage queue's bean (container-managed transaction): logs each delivery, and the body again once the
 * delivery's transaction has committed, so that "received" means consumed, not merely handed over. It connects
 * where the outage pool does (connectionFactoryLookup), so it loses the daemon too.
 */
@MessageDriven(name = "OutageReceiverMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Names.OUTAGE_QUEUE),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "connectionFactoryLookup",
                propertyValue = Names.OUTAGE_CONNECTION_FACTORY)})
public class OutageReceiverMdb implements MessageListener {

    @EJB
    private DeliveryLog log;

    @Resource
    private TransactionSynchronizationRegistry transactions;

    @Override
    public void onMessage(Message message) {
        String body;
        try {
            body = message.getBody(String.class);
            log.delivered(body, message.getJMSRedelivered());
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                log.completed(body, status);
            }
        });
    }
}
