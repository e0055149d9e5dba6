package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * The redelivery scenario's container-managed transacted bean (REQUIRED, the default): each delivery is a branch
 * of the container's transaction, which a failure rolls back. Its activation gives up on a message after 3
 * deliveries, at once (the same limit as the pool the servlet sends through), with 2 sessions.
 */
@MessageDriven(name = "TransactedRedeliveryMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Names.REDELIVERY_TRANSACTED_QUEUE),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "3"),
        @ActivationConfigProperty(propertyName = "redeliveryDelay", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2")})
public class TransactedRedeliveryMdb extends FailOnDemandListener {
}
