package io.mikyu.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Injects the JMS connection URL of the test's store into a {@code String} parameter or field:
 * {@code vm:///tmp/mikyu-test-…?durability=async} with the test's options, for code under test that makes its own
 * {@code MikyuConnectionFactory} or reads the URL from its configuration.
 *
 * <pre>{@code
 * @MikyuTest
 * class OrderServiceTest {
 *     @Test
 *     void sends(@MikyuUrl String url) { new OrderService(url).placeOrder("coffee"); }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD})
public @interface MikyuUrl {
}
