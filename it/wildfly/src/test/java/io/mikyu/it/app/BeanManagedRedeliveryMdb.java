package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;

/**
 * The redelivery scenario's bean-managed bean: its deliveries are in no transaction (the adapter acknowledges when
 * onMessage returns, and recovers when it throws). Activation as {@link TransactedRedeliveryMdb}'s.
 */
@MessageDriven(name = "BeanManagedRedeliveryMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Names.REDELIVERY_BEAN_MANAGED_QUEUE),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "3"),
        @ActivationConfigProperty(propertyName = "redeliveryDelay", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2")})
@TransactionManagement(TransactionManagementType.BEAN)
public class BeanManagedRedeliveryMdb extends FailOnDemandListener {
}
