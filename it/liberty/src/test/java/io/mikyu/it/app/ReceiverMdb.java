package io.mikyu.it.app;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * The test queue's bean. Its activation is server.xml's jmsActivationSpec e2e/ReceiverMdb, which names the queue by
 * the adapter's own destination property. Liberty treats a destination or destinationLookup given to it as a JNDI
 * name: it looks the name up itself and hands the adapter the administered object's toString(),
 * "queue://it.queue", as destination (the adapter reads that text form; when destinationLookup is set too, the
 * lookup wins). Naming the queue directly keeps the activation free of that indirection.
 */
@MessageDriven(name = "ReceiverMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class ReceiverMdb extends RecordingListener {
}
