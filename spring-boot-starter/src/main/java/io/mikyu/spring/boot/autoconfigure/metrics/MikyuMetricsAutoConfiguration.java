package io.mikyu.spring.boot.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.mikyu.jms.metrics.JmsMetrics;
import io.mikyu.spring.boot.metrics.MikyuMeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The JMS provider's meters and its embedded store's in the application's {@link MeterRegistry}, whenever the
 * provider is on the class path (also with a {@code ConnectionFactory} of the application's own making).
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class })
@ConditionalOnClass({ MeterRegistry.class, JmsMetrics.class })
@ConditionalOnBean(MeterRegistry.class)
public final class MikyuMetricsAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    MikyuMeterBinder mikyuMeterBinder() {
        return new MikyuMeterBinder();
    }
}
