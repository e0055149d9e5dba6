package io.mikyu.it.annotated;

import jakarta.jms.JMSConnectionFactoryDefinition;
import jakarta.jms.JMSDestinationDefinition;

/**
 * The application's own connection factory and queue, declared with the standard annotations on mikyu's adapter
 * ({@code resourceAdapter = "mikyu-jca"}: WildFly appends {@code .rar}, the id the adapter is deployed under).
 *
 * <p>What WildFly 39 passes on, and so what the declarations must say:
 * <ul>
 *   <li>{@code properties} go to the pool's managed connection factory ({@code ra.}-prefixed ones to the adapter
 *   copy WildFly starts for the pool); {@code url} is the engine the subsystem's adapter also opens, so the
 *   annotation's {@code ${...}} is resolved by the server (ee subsystem's annotation-property-replacement).</li>
 *   <li>{@code destinationName} is not passed to a third-party adapter's administered object, so the queue's
 *   mikyu name is given as its {@code name} property, and {@code className} (no default) names the adapter's
 *   class.</li>
 * </ul>
 */
@JMSConnectionFactoryDefinition(
        name = AnnotatedResources.CONNECTION_FACTORY,
        resourceAdapter = "mikyu-jca",
        clientId = AnnotatedResources.CLIENT_ID,
        maxPoolSize = 5,
        properties = {"url=vm://${mikyu.it.data}/wildfly"})
@JMSDestinationDefinition(
        name = AnnotatedResources.QUEUE,
        interfaceName = "jakarta.jms.Queue",
        className = "io.mikyu.jca.admin.AdminQueue",
        resourceAdapter = "mikyu-jca",
        destinationName = AnnotatedResources.QUEUE_NAME,
        properties = {"name=" + AnnotatedResources.QUEUE_NAME})
@JMSDestinationDefinition(
        name = AnnotatedResources.BEAN_QUEUE,
        interfaceName = "jakarta.jms.Queue",
        className = "io.mikyu.jca.admin.AdminQueue",
        resourceAdapter = "mikyu-jca",
        properties = {"name=" + AnnotatedResources.BEAN_QUEUE_NAME})
public final class AnnotatedResources {

    public static final String CONNECTION_FACTORY = "java:app/jms/mikyu/it/annotated/ConnectionFactory";
    public static final String QUEUE = "java:app/jms/mikyu/it/annotated/Queue";
    public static final String QUEUE_NAME = "it.annotated.queue";
    /**
     * The message-driven bean's queue ({@link AnnotatedQueueMdb}), in java:global: the adapter looks a bean's
     * destinationLookup up on a thread of its own, where the application's java:app and java:module are not.
     */
    public static final String BEAN_QUEUE = "java:global/jms/mikyu/it/annotated/BeanQueue";
    public static final String BEAN_QUEUE_NAME = "it.annotated.bean-queue";
    public static final String CLIENT_ID = "annotated-it";

    private AnnotatedResources() {
    }
}
