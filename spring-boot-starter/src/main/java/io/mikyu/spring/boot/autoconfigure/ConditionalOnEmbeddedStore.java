package io.mikyu.spring.boot.autoconfigure;

import org.springframework.context.annotation.Conditional;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Matches when {@code spring.mikyu.url} names a store in this JVM: it is not set, or is a {@code vm://} URL. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@Conditional(OnEmbeddedStoreCondition.class)
public @interface ConditionalOnEmbeddedStore {

    /** Whether to match an embedded store (true) or a daemon (false). */
    boolean value() default true;
}
