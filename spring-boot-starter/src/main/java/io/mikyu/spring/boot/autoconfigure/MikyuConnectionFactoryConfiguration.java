package io.mikyu.spring.boot.autoconfigure;

import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.spring.boot.embedded.MikyuEmbeddedStore;
import jakarta.jms.ConnectionFactory;
import org.apache.commons.pool2.PooledObject;
import org.messaginghub.pooled.jms.JmsPoolConnectionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.jms.autoconfigure.JmsPoolConnectionFactoryFactory;
import org.springframework.boot.jms.autoconfigure.JmsProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.connection.UserCredentialsConnectionFactoryAdapter;

/**
 * The {@code jmsConnectionFactory} bean, as Boot makes Artemis's: a {@link CachingConnectionFactory} around mikyu's
 * ({@code spring.jms.cache.*}, on by default), mikyu's own ({@code spring.jms.cache.enabled=false}), or a pooled-jms
 * {@link JmsPoolConnectionFactory} ({@code spring.mikyu.pool.enabled=true}, with {@code org.messaginghub:pooled-jms}
 * on the class path). Boot's listener containers take the factory inside the caching one.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(ConnectionFactory.class)
class MikyuConnectionFactoryConfiguration {

    /**
     * mikyu's factory for the URL, with {@code spring.mikyu.user} and {@code password} given to each connection;
     * after the embedded store, if any, is open.
     */
    static ConnectionFactory mikyuConnectionFactory(MikyuUrl url, MikyuProperties properties,
                                                    ObjectProvider<MikyuEmbeddedStore> store) {
        store.getIfAvailable();
        MikyuConnectionFactory factory = new MikyuConnectionFactory(url.value());
        if (properties.getUser() == null) {
            return factory;
        }
        UserCredentialsConnectionFactoryAdapter credentials = new UserCredentialsConnectionFactoryAdapter();
        credentials.setTargetConnectionFactory(factory);
        credentials.setUsername(properties.getUser());
        credentials.setPassword(properties.getPassword());
        return credentials;
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "spring.mikyu.pool.enabled", havingValue = false, matchIfMissing = true)
    static class SimpleConnectionFactoryConfiguration {

        @Bean(name = "jmsConnectionFactory")
        @ConditionalOnBooleanProperty(name = "spring.jms.cache.enabled", havingValue = false)
        ConnectionFactory jmsConnectionFactory(MikyuUrl url, MikyuProperties properties,
                                               ObjectProvider<MikyuEmbeddedStore> store) {
            return mikyuConnectionFactory(url, properties, store);
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(CachingConnectionFactory.class)
        @ConditionalOnBooleanProperty(name = "spring.jms.cache.enabled", matchIfMissing = true)
        static class CachingConnectionFactoryConfiguration {

            @Bean(name = "jmsConnectionFactory")
            CachingConnectionFactory cachingJmsConnectionFactory(JmsProperties jmsProperties, MikyuUrl url,
                                                                 MikyuProperties properties,
                                                                 ObjectProvider<MikyuEmbeddedStore> store) {
                JmsProperties.Cache cache = jmsProperties.getCache();
                CachingConnectionFactory factory = new CachingConnectionFactory(
                        mikyuConnectionFactory(url, properties, store));
                factory.setCacheConsumers(cache.isConsumers());
                factory.setCacheProducers(cache.isProducers());
                factory.setSessionCacheSize(cache.getSessionCacheSize());
                return factory;
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ JmsPoolConnectionFactory.class, PooledObject.class })
    @ConditionalOnBooleanProperty("spring.mikyu.pool.enabled")
    static class PooledConnectionFactoryConfiguration {

        @Bean(destroyMethod = "stop")
        JmsPoolConnectionFactory jmsConnectionFactory(MikyuUrl url, MikyuProperties properties,
                                                      ObjectProvider<MikyuEmbeddedStore> store) {
            return new JmsPoolConnectionFactoryFactory(properties.getPool())
                    .createPooledConnectionFactory(mikyuConnectionFactory(url, properties, store));
        }
    }
}
