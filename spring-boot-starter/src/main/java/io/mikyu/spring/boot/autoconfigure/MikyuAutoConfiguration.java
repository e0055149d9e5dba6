package io.mikyu.spring.boot.autoconfigure;

import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.spring.boot.embedded.MikyuEmbeddedStore;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration;
import org.springframework.boot.jms.autoconfigure.JmsProperties;
import org.springframework.boot.jms.autoconfigure.JndiConnectionFactoryAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * A mikyu JMS {@link ConnectionFactory} from {@code spring.mikyu.*} ({@link MikyuProperties}): a store embedded in
 * this JVM ({@code ./mikyu-data} unless said otherwise) or a {@code mikyu daemon}. Boot's JMS auto-configuration
 * then makes the {@code JmsTemplate} and the {@code @JmsListener} containers on it. Backs off when the application
 * has a {@code ConnectionFactory} of its own.
 */
@AutoConfiguration(before = JmsAutoConfiguration.class, after = JndiConnectionFactoryAutoConfiguration.class)
@ConditionalOnClass({ ConnectionFactory.class, MikyuConnectionFactory.class })
@ConditionalOnMissingBean(ConnectionFactory.class)
@EnableConfigurationProperties({ MikyuProperties.class, JmsProperties.class })
@Import(MikyuConnectionFactoryConfiguration.class)
public final class MikyuAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    MikyuUrl mikyuUrl(MikyuProperties properties) {
        return MikyuUrl.from(properties);
    }

    /** Opened before the connection factory (which depends on it), released when the context closes. */
    @Bean(destroyMethod = "close")
    @ConditionalOnEmbeddedStore
    @ConditionalOnMissingBean
    MikyuEmbeddedStore mikyuEmbeddedStore(MikyuUrl url, MikyuProperties properties) throws JMSException {
        return MikyuEmbeddedStore.open(new MikyuConnectionFactory(url.value()), url.parsed().dataDir(),
                properties.getUser(), properties.getPassword());
    }
}
