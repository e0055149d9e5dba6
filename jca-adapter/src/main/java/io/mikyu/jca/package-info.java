/**
 * The Jakarta Connectors resource adapter: pooled connection factories ({@code .outbound}), message-driven beans and
 * recovery ({@code .inbound}), administered Queue and Topic objects ({@code .admin}), on top of the JMS provider.
 * Application servers and deployment descriptors name its classes (see {@code ra.xml}); applications program against
 * the Jakarta Messaging API, not against these classes.
 */
package io.mikyu.jca;
