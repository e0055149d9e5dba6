package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * A bean on a durable subscription of its own: a client ID makes it an unshared one, delivered by one session, in
 * the order published. The subscription outlives the bean's application; what is published meanwhile waits in it.
 */
@MessageDriven(name = "DurableSubscriberMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Names.DURABLE_TOPIC),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
        @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "Durable"),
        @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "it-durable"),
        @ActivationConfigProperty(propertyName = "clientId", propertyValue = "it-durable-subscriber")})
public class DurableSubscriberMdb extends FailOnDemandListener {
}
