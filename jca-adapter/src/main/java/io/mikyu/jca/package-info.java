/**
 * The Jakarta Connectors resource adapter (planned): pooled connection factories, message-driven beans and XA on
 * top of the JMS provider. Nothing here is API yet.
 */
package io.mikyu.jca;
