package io.mikyu.it.app;

import io.mikyu.it.Names;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * The daemon's queue's bean: the queue by destinationLookup, and where to connect by the standard
 * connectionFactoryLookup (the daemon's pool: its url instead of the adapter's).
 */
@MessageDriven(name = "TcpReceiverMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Names.TCP_QUEUE),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "connectionFactoryLookup",
                propertyValue = Names.TCP_CONNECTION_FACTORY)})
public class TcpReceiverMdb extends RecordingListener {
}
