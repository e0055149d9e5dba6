package io.mikyu.spring.boot.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.mikyu.engine.Durability;
import io.mikyu.engine.Mikyu;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.config.ProviderOptions;
import io.mikyu.spring.boot.autoconfigure.health.MikyuHealthContributorAutoConfiguration;
import io.mikyu.spring.boot.autoconfigure.metrics.MikyuMetricsAutoConfiguration;
import io.mikyu.spring.boot.embedded.MikyuEmbeddedStore;
import io.mikyu.spring.boot.health.MikyuBrokerHealthIndicator;
import io.mikyu.spring.boot.health.MikyuStoreHealthIndicator;
import jakarta.jms.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.messaginghub.pooled.jms.JmsPoolConnectionFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.connection.UserCredentialsConnectionFactoryAdapter;
import org.springframework.jms.core.JmsTemplate;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The auto-configuration's conditions and properties, context by context. */
@Timeout(60)
class MikyuAutoConfigurationTest {

    @TempDir
    Path dir;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MikyuAutoConfiguration.class, JmsAutoConfiguration.class,
                    MikyuHealthContributorAutoConfiguration.class, HealthContributorAutoConfiguration.class));

    private ApplicationContextRunner embedded() {
        return runner.withPropertyValues("spring.mikyu.embedded.directory=" + dir.resolve("store"));
    }

    @Test
    void byDefaultAnEmbeddedStoreOpenWhileTheContextIsBehindACachingFactory() {
        embedded().run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(ConnectionFactory.class).hasSingleBean(JmsTemplate.class);
            CachingConnectionFactory caching = context.getBean(CachingConnectionFactory.class);
            assertThat(caching.getTargetConnectionFactory()).isInstanceOf(MikyuConnectionFactory.class);
            assertThat(((MikyuConnectionFactory) caching.getTargetConnectionFactory()).getURL())
                    .isEqualTo("vm://" + dir.resolve("store"));
            assertThat(context.getBean(MikyuEmbeddedStore.class).isOpen()).isTrue();
            assertThat(context.getBean(MikyuEmbeddedStore.class).engine().location())
                    .isEqualTo(dir.resolve("store").toRealPath().toString());
            context.getBean(JmsTemplate.class).convertAndSend("q", "hello");
        });
        // the context closed: the store is closed and its directory free for another opener
        try (Mikyu reopened = Mikyu.open(dir.resolve("store"))) {
            assertThat(reopened.list(io.mikyu.engine.QueueKind.TASK)).contains("q");
        }
    }

    @Test
    void withoutAnyPropertyTheStoreIsMikyuDataUnderTheWorkingDirectory() {
        MikyuUrl url = MikyuUrl.from(new MikyuProperties());
        assertThat(url.value()).isEqualTo("vm://mikyu-data");
        assertThat(url.parsed().dataDir()).isEqualTo(Path.of("mikyu-data"));
    }

    @Test
    void backsOffWhenTheApplicationHasAConnectionFactory() {
        embedded().withUserConfiguration(OwnConnectionFactory.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(ConnectionFactory.class)
                    .doesNotHaveBean(MikyuEmbeddedStore.class).doesNotHaveBean(MikyuUrl.class)
                    .doesNotHaveBean("mikyuHealthIndicator");
            assertThat(context.getBean(ConnectionFactory.class)).isSameAs(OwnConnectionFactory.FACTORY);
        });
        assertThat(dir.resolve("store")).doesNotExist();
    }

    @Test
    void propertiesBecomeTheProviderUrlsOptions() {
        embedded().withPropertyValues("spring.mikyu.durability=async", "spring.mikyu.client-id=billing",
                "spring.mikyu.prefetch=8", "spring.mikyu.max-attempts=3", "spring.mikyu.redelivery-delay=250ms",
                "spring.mikyu.lease=5s", "spring.mikyu.transaction-timeout=2m",
                "spring.mikyu.options[flushInterval]=100ms", "spring.mikyu.options[maxAttempts.orders]=7")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ProviderOptions options = context.getBean(MikyuUrl.class).parsed();
                    assertThat(options.persistentDurability()).isEqualTo(Durability.ASYNC);
                    assertThat(options.clientId()).isEqualTo("billing");
                    assertThat(options.prefetch()).isEqualTo(8);
                    assertThat(options.maxAttempts()).isEqualTo(3);
                    assertThat(options.maxAttemptsOf("orders")).isEqualTo(7);
                    assertThat(options.redeliveryDelay()).isEqualTo(Duration.ofMillis(250));
                    assertThat(options.lease()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(options.transactionTimeout()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(options.configOverrides()).containsEntry("flushInterval", "100ms");
                    assertThat(((MikyuConnectionFactory) context.getBean(CachingConnectionFactory.class)
                            .getTargetConnectionFactory()).getURL()).isEqualTo(context.getBean(MikyuUrl.class).value());
                });
    }

    @Test
    void optionNamesKeepTheirCaseWithOrWithoutBrackets() {
        embedded().withPropertyValues("spring.mikyu.options.flushInterval=100ms",
                "spring.mikyu.options[maxAttempts.Orders]=4").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(MikyuUrl.class).parsed().configOverrides())
                            .containsEntry("flushInterval", "100ms");
                    assertThat(context.getBean(MikyuUrl.class).parsed().maxAttemptsOf("Orders")).isEqualTo(4);
                });
    }

    @Test
    void aDaemonUrlKeepsItsOwnOptionsAndTakesTheTypedOnes() {
        // the embedded directory stays unused: one property switches an application to a daemon
        embedded().withPropertyValues("spring.mikyu.url=tcp://127.0.0.1:21449?clientName=billing-app",
                "spring.mikyu.reconnect=2s", "spring.mikyu.options[connectTimeout]=3s").run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(MikyuEmbeddedStore.class);
                    ProviderOptions options = context.getBean(MikyuUrl.class).parsed();
                    assertThat(options.brokerUri()).isEqualTo("tcp://127.0.0.1:21449");
                    assertThat(options.dialOptions()).containsEntry("clientName", "billing-app")
                            .containsEntry("reconnect", "2000").containsEntry("connectTimeout", "3s");
                    assertThat(context.getBean("mikyuHealthIndicator")).isInstanceOf(MikyuBrokerHealthIndicator.class);
                });
        assertThat(dir.resolve("store")).doesNotExist();
    }

    @Test
    void anOptionGivenTwiceOrUnknownOrBothUrlAndDirectoryFailTheStartNamingWhy() {
        embedded().withPropertyValues("spring.mikyu.durability=async", "spring.mikyu.options[durability]=sync")
                .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining(
                        "'durability' is given twice: in spring.mikyu.durability and in spring.mikyu.options[durability]"));
        embedded().withPropertyValues("spring.mikyu.options[flushIntervall]=1s")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("unknown option 'flushIntervall'"));
        embedded().withPropertyValues("spring.mikyu.url=vm://" + dir.resolve("other"))
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("spring.mikyu.url is a vm:// URL and spring.mikyu.embedded.directory"
                                + " is set too"));
        embedded().withPropertyValues("spring.mikyu.reconnect=5s")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("unknown option 'reconnect'"));
    }

    @Test
    void aStoreDirectoryInUseFailsTheStart() {
        try (Mikyu holder = Mikyu.open(dir.resolve("store"))) {
            embedded().run(context -> assertThat(context).getFailure()
                    .hasStackTraceContaining(dir.resolve("store").toString()));
        }
    }

    @Test
    void credentialsAreGivenToEachConnection() {
        embedded().withPropertyValues("spring.mikyu.user=app", "spring.mikyu.password=secret").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(CachingConnectionFactory.class).getTargetConnectionFactory())
                    .isInstanceOf(UserCredentialsConnectionFactoryAdapter.class);
        });
    }

    @Test
    void theCacheCanBeTurnedOffAndAPoolOn() {
        embedded().withPropertyValues("spring.jms.cache.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ConnectionFactory.class)).isInstanceOf(MikyuConnectionFactory.class);
        });
        embedded().withPropertyValues("spring.mikyu.pool.enabled=true", "spring.mikyu.pool.max-connections=3")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    JmsPoolConnectionFactory pool = context.getBean(JmsPoolConnectionFactory.class);
                    assertThat(pool.getMaxConnections()).isEqualTo(3);
                    assertThat(pool.getConnectionFactory()).isInstanceOf(MikyuConnectionFactory.class);
                    context.getBean(JmsTemplate.class).convertAndSend("pooled", "hello");
                });
    }

    @Test
    void theHealthIndicatorIsThereOnlyWithBootsHealthSupportAndSaysTheStoreIsUp() {
        embedded().run(context -> {
            HealthIndicator indicator = context.getBean("mikyuHealthIndicator", HealthIndicator.class);
            assertThat(indicator).isInstanceOf(MikyuStoreHealthIndicator.class);
            Health health = indicator.health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("mode", "embedded")
                    .containsEntry("directory", dir.resolve("store").toRealPath().toString())
                    .containsKeys("storeId", "freeDiskBytes");
        });
        embedded().withPropertyValues("management.health.mikyu.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("mikyuHealthIndicator"));
        // without Boot's health support (spring-boot-health, which the actuator brings) on the class path
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MikyuAutoConfiguration.class, JmsAutoConfiguration.class,
                        MikyuHealthContributorAutoConfiguration.class))
                .withPropertyValues("spring.mikyu.embedded.directory=" + dir.resolve("store"))
                .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ConnectionFactory.class)
                        .hasSingleBean(MikyuEmbeddedStore.class).doesNotHaveBean("mikyuHealthIndicator"));
    }

    @Test
    void theProvidersMetersGoToTheApplicationsRegistryAlsoWithoutTheGlobalOne() {
        embedded().withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                        MikyuMetricsAutoConfiguration.class))
                .withPropertyValues("management.metrics.use-global-registry=false").run(context -> {
                    assertThat(context).hasNotFailed();
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(io.micrometer.core.instrument.Metrics.globalRegistry.getRegistries())
                            .doesNotContain(registry);
                    double sends = registry.counter("mikyu.jms.sends").count();
                    context.getBean(JmsTemplate.class).convertAndSend("metered", "a");
                    context.getBean(JmsTemplate.class).convertAndSend("metered", "b");
                    assertThat(registry.counter("mikyu.jms.sends").count() - sends).isEqualTo(2);
                    assertThat(registry.get("mikyu.queue.depth").tag("queue", "metered").gauge().value())
                            .isEqualTo(2);
                });
        embedded().withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                        MikyuMetricsAutoConfiguration.class)).run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(io.micrometer.core.instrument.Metrics.globalRegistry.getRegistries())
                            .contains(registry);
                    double sends = registry.counter("mikyu.jms.sends").count();
                    context.getBean(JmsTemplate.class).convertAndSend("metered", "c");
                    assertThat(registry.counter("mikyu.jms.sends").count() - sends).isEqualTo(1);
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnConnectionFactory {
        static final ConnectionFactory FACTORY = new MikyuConnectionFactory("vm://elsewhere");

        @Bean
        ConnectionFactory myConnectionFactory() {
            return FACTORY;
        }
    }
}
