package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * The test queue's bean, on the adapter that -Dejb.resource-adapter-name names, the queue by the standard
 * destinationLookup (WildFly passes it to the adapter as it is, with messageDestinationType besides).
 */
@MessageDriven(name = "ReceiverMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Names.QUEUE),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class ReceiverMdb extends RecordingListener {
}
