package io.mikyu.junit5;

import io.mikyu.engine.Durability;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class with a mikyu store in a temporary directory: {@link MikyuExtension} with the options below.
 *
 * <pre>{@code
 * @MikyuTest
 * class OrdersTest {
 *     @Test
 *     void roundTrip(JMSContext jms, MikyuQueues queues) {
 *         jms.createProducer().send(jms.createQueue("orders"), "2 coffees");
 *         assertEquals("2 coffees", queues.receive("orders").getBody(String.class));
 *     }
 * }
 * }</pre>
 *
 * <p>For options in code (or a store per field), register the extension instead:
 * {@code @RegisterExtension static MikyuExtension mikyu = MikyuExtension.builder()…build();}.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(MikyuExtension.class)
public @interface MikyuTest {

    /**
     * One store for the class (default) or a fresh one for each test.
     *
     * @return the store's lifecycle
     */
    StoreLifecycle lifecycle() default StoreLifecycle.PER_CLASS;

    /**
     * Durability of PERSISTENT sends, acknowledgements and commits: {@code ASYNC} by default, which is fast and loses
     * nothing unless the machine loses power; {@code SYNC} to test with an fsync per commit, as the JMS provider's
     * own default.
     *
     * @return the durability
     */
    Durability durability() default Durability.ASYNC;

    /**
     * Also serve the store on a free loopback port through mikyu's broker, for code that connects over
     * {@code tcp://} ({@link BrokerUrl}, {@link MikyuBroker}). Needs {@code io.mikyu:mikyu-broker} on the test class
     * path.
     *
     * @return whether to start the broker
     */
    boolean broker() default false;

    /**
     * More options of the JMS URL, {@code "name=value"} each, e.g. {@code {"maxAttempts=3", "redeliveryDelay=0"}}
     * (see {@code docs/jms.md}, URL options).
     *
     * @return the options
     */
    String[] options() default {};
}
