package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * A bean on a shared, non-durable subscription with 4 sessions: each message of the topic goes to one of them.
 */
@MessageDriven(name = "SharedSubscriberMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Names.SHARED_TOPIC),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
        @ActivationConfigProperty(propertyName = "shareSubscriptions", propertyValue = "true"),
        @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "it-shared"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "4")})
public class SharedSubscriberMdb extends FailOnDemandListener {
}
