package io.mikyu.it.app;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * The daemon's queue's bean. Its activation is server.xml's jmsActivationSpec e2e-tcp/TcpReceiverMdb: the queue by
 * the adapter's destination property and the daemon by its url property (see {@link ReceiverMdb} for why not by
 * lookups).
 */
@MessageDriven(name = "TcpReceiverMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class TcpReceiverMdb extends RecordingListener {
}
