/**
 * A read-only JNDI provider for the JMS administered objects: {@link io.mikyu.jms.jndi.MikyuInitialContextFactory}
 * builds its context from the JNDI environment ({@code jndi.properties}), so no naming server is needed.
 */
package io.mikyu.jms.jndi;
