package io.mikyu.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Injects the JMS connection URL of the test's broker into a {@code String} parameter or field:
 * {@code tcp://127.0.0.1:<port>?durability=async} with the test's options, for code under test that talks to a
 * {@code mikyu daemon} over the network. The broker serves the same store as {@link MikyuUrl}, so what a remote
 * client sends is in the queues that the injected {@code Mikyu} and {@link MikyuQueues} see.
 *
 * <p>Needs the broker option ({@code @MikyuTest(broker = true)} or {@code MikyuExtension.builder().broker()});
 * {@link MikyuBroker} has the bare address for {@code Mikyu.dial} and the command line.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD})
public @interface BrokerUrl {
}
