package io.mikyu.it.app;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * The redelivery scenario's container-managed transacted bean (REQUIRED, the default): each delivery is a branch
 * of the container's transaction, which a failure rolls back. Its activation is server.xml's jmsActivationSpec
 * redelivery/TransactedRedeliveryMdb: the queue by name (see {@link ReceiverMdb} for why), 3 deliveries at most,
 * at once, with 2 sessions.
 */
@MessageDriven(name = "TransactedRedeliveryMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class TransactedRedeliveryMdb extends FailOnDemandListener {
}
