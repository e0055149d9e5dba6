package io.mikyu.spring.boot.autoconfigure.health;

import io.mikyu.spring.boot.autoconfigure.ConditionalOnEmbeddedStore;
import io.mikyu.spring.boot.autoconfigure.MikyuAutoConfiguration;
import io.mikyu.spring.boot.autoconfigure.MikyuProperties;
import io.mikyu.spring.boot.autoconfigure.MikyuUrl;
import io.mikyu.spring.boot.embedded.MikyuEmbeddedStore;
import io.mikyu.spring.boot.health.MikyuBrokerHealthIndicator;
import io.mikyu.spring.boot.health.MikyuStoreHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code mikyu} health indicator ({@code management.health.mikyu.enabled}): the embedded store open, or the
 * daemon reachable. Only with Boot's health support on the class path and mikyu's connection factory configured.
 */
@AutoConfiguration(after = MikyuAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(MikyuUrl.class)
@ConditionalOnEnabledHealthIndicator("mikyu")
public final class MikyuHealthContributorAutoConfiguration {

    @Bean
    @ConditionalOnEmbeddedStore
    @ConditionalOnBean(MikyuEmbeddedStore.class)
    @ConditionalOnMissingBean(name = "mikyuHealthIndicator")
    MikyuStoreHealthIndicator mikyuHealthIndicator(MikyuEmbeddedStore store) {
        return new MikyuStoreHealthIndicator(store);
    }

    @Bean(name = "mikyuHealthIndicator")
    @ConditionalOnEmbeddedStore(false)
    @ConditionalOnMissingBean(name = "mikyuHealthIndicator")
    MikyuBrokerHealthIndicator mikyuBrokerHealthIndicator(MikyuUrl url, MikyuProperties properties) {
        return new MikyuBrokerHealthIndicator(url, properties.getUser(), properties.getPassword());
    }
}
