/**
 * The Jakarta Messaging 3.1 provider's API: the connection factories ({@link io.mikyu.jms.MikyuConnectionFactory},
 * {@link io.mikyu.jms.MikyuXAConnectionFactory}) and the administered destinations. JMS Topics are the engine's
 * log queues, JMS Queues its task queues (docs/architecture.md, "JMS provider"); the URL options are in
 * docs/jms.md.
 */
package io.mikyu.jms;
