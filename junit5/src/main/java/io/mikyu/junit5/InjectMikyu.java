package io.mikyu.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a field the extension fills: a {@code ConnectionFactory}, {@code JMSContext}, {@code Connection},
 * {@code Mikyu}, {@link MikyuQueues} or {@link MikyuBroker} (for the URLs, {@link MikyuUrl} and {@link BrokerUrl}).
 *
 * <p>Instance fields are set before each test's {@code @BeforeEach} methods; static fields before the class's
 * {@code @BeforeAll} methods, for store-wide objects of a {@link StoreLifecycle#PER_CLASS} store only (a
 * {@code JMSContext} or {@code Connection} is made for one test and closed after it).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface InjectMikyu {
}
