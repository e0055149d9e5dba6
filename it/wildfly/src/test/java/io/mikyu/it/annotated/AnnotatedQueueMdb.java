package io.mikyu.it.annotated;

import io.mikyu.it.app.RecordingListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * A bean on a queue the application declared ({@link AnnotatedResources#BEAN_QUEUE}), named to the adapter by the
 * standard destinationLookup.
 */
@MessageDriven(name = "AnnotatedQueueMdb", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = AnnotatedResources.BEAN_QUEUE),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class AnnotatedQueueMdb extends RecordingListener {
}
