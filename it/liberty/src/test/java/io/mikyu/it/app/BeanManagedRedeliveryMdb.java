package io.mikyu.it.app;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;

/**
 * The redelivery scenario's bean-managed bean: its deliveries are in no transaction (the adapter acknowledges when
 * onMessage returns, and recovers when it throws). Its activation is server.xml's jmsActivationSpec
 * redelivery/BeanManagedRedeliveryMdb, as {@link TransactedRedeliveryMdb}'s.
 */
@MessageDriven(name = "BeanManagedRedeliveryMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
@TransactionManagement(TransactionManagementType.BEAN)
public class BeanManagedRedeliveryMdb extends FailOnDemandListener {
}
