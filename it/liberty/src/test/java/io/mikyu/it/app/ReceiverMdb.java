package io.mikyu.it.app;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * The test queue's bean. Its activation is server.xml's jmsActivationSpec e2e/ReceiverMdb, which names the queue by
 * the adapter's own destination property. Not by destinationLookup (nor by a destination given here, which
 * Liberty takes as a JNDI name): Liberty looks such a name up itself and hands the adapter the administered
 * object's toString(), "queue://it.queue", as destination, which the adapter takes for a queue of that name; with
 * destinationLookup set as well it refuses the activation (J2CA8802E, InvalidPropertyException "both destination
 * ('queue://it.queue') and destinationLookup ('jms/mikyu/it/Queue') are set").
 */
@MessageDriven(name = "ReceiverMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class ReceiverMdb extends RecordingListener {
}
