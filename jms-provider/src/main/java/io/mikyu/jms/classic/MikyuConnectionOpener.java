package io.mikyu.jms.classic;

import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.Durability;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.Secrets;
import io.mikyu.engine.security.Principal;
import io.mikyu.engine.security.SecurityRealm;
import io.mikyu.jms.ConnectionOpener;
import io.mikyu.jms.TemporaryDestinations;
import io.mikyu.jms.config.ProviderOptions;
import io.mikyu.jms.embedded.EmbeddedEngines;
import io.mikyu.jms.metrics.JmsMetrics;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the connection factories open connections with (registered in {@code META-INF/services}): reads the
 * configuration, then authenticates and opens (or shares) the engine of the URL's directory, or dials (or shares)
 * the URL's broker, and makes the connection on it. Apart from the connection because none of this is used again
 * once the connection exists.
 */
public final class MikyuConnectionOpener implements ConnectionOpener {

    @Override
    public MikyuConnection open(ProviderOptions options, String user, String password) throws JMSException {
        return open(options, user, password, MikyuConnection::new);
    }

    @Override
    public MikyuXAConnection openXA(ProviderOptions options, String user, String password) throws JMSException {
        if (options.isKafka()) {
            throw KafkaStores.noXa(options);
        }
        return open(options, user, password, MikyuXAConnection::new);
    }

    /** How a connection of one class or the other is made once the engine is there. */
    @FunctionalInterface
    interface Maker<C extends MikyuConnection> {
        C make(ProviderOptions options, EmbeddedEngines.Handle engineHandle, Principal principal);
    }

    private static <C extends MikyuConnection> C open(ProviderOptions options, String user, String password,
                                                      Maker<C> maker) throws JMSException {
        if (options.isKafka()) {
            return maker.make(options, KafkaStores.dial(options), Principal.UNRESTRICTED);
        }
        MikyuConfig config;
        UserStore users;
        try {
            config = MikyuConfig.load(options.configFile(), options.configOverrides(), "URL");
            users = options.isRemote() ? null : options.usersFile() != null
                    ? UserStore.load(options.usersFile(), options.allowAnonymous())
                    : UserStore.of(SecurityRealm.from(config));
        } catch (IllegalArgumentException e) {
            throw JmsErrors.with(new JMSException("cannot use the configuration of " + Secrets.redact(options.url()) + ": "
                    + e.getMessage()), e);
        }
        if (options.isRemote()) {
            return maker.make(options, dial(options, config, user, password), Principal.UNRESTRICTED);
        }
        Principal who = users.authenticate(user, password);
        EmbeddedEngines.Handle handle;
        try {
            handle = EmbeddedEngines.acquire(options.dataDir(), config.engineConfig()
                    .defaultDurability(Durability.ASYNC).meterRegistry(JmsMetrics.GLOBAL.registry()).build(),
                    MikyuConnectionOpener::sweepLeftovers);
        } catch (RuntimeException e) {
            throw JmsErrors.with(new JMSException("cannot open the mikyu engine in " + options.dataDir() + ": "
                    + e.getMessage()), e);
        }
        return maker.make(options, handle, who);
    }

    /**
     * The credentials and TLS settings of the config file (or {@code -Dmikyu.<key>}) under the URL's, and those
     * given to {@code createConnection} over both. Connections with other credentials get a connection of their own.
     */
    private static EmbeddedEngines.Handle dial(ProviderOptions options, MikyuConfig config, String user,
                                               String password) throws JMSException {
        Map<String, String> dial = new LinkedHashMap<>();
        for (String key : List.of(MikyuConfig.Key.USER.key(), MikyuConfig.Key.PASSWORD.key())) {
            if (config.get(key) != null) {
                dial.put(key, config.get(key));
            }
        }
        config.withPrefix("tls.").forEach((k, v) -> {
            if (!k.equals(MikyuConfig.Key.TLS_CLIENT_AUTH.key())) {
                dial.put(k, v);
            }
        });
        dial.putAll(options.dialOptions());
        if (user != null || password != null) {
            dial.remove("user");
            dial.remove("password");
            if (user != null) {
                dial.put("user", user);
            }
            if (password != null) {
                dial.put("password", password);
            }
        }
        try {
            return EmbeddedEngines.acquireRemote(options.brokerUri(), dial);
        } catch (AuthenticationException e) {
            throw JmsErrors.with(new JMSSecurityException("the mikyu broker at " + options.brokerUri()
                    + " refused the connection: " + e.getMessage()), e);
        } catch (RuntimeException e) {
            String why = e.getMessage();
            if (why != null && why.startsWith("no dialer for")) {
                why = "the network client is not on the class path: add the artifact io.mikyu:mikyu-client"
                        + " next to mikyu-jms (" + why + ")";
            }
            throw JmsErrors.with(new JMSException("cannot connect to the mikyu broker at " + options.brokerUri()
                    + ": " + why), e);
        }
    }

    /**
     * When an engine is opened: deletes what a JVM that died left of connection-scoped state — temporary
     * destinations and shared non-durable subscriptions.
     */
    private static void sweepLeftovers(Mikyu engine) {
        for (String q : engine.list(QueueKind.TASK)) {
            if (TemporaryDestinations.isTemporaryName(q)) {
                engine.deleteTaskQueue(q);
            }
        }
        for (String l : engine.list(QueueKind.LOG)) {
            if (TemporaryDestinations.isTemporaryName(l)) {
                engine.deleteLog(l);
                continue;
            }
            LogQueue log = engine.log(l);
            for (String g : log.groups()) {
                if (g.startsWith(SubscriptionNames.SHARED)) {
                    log.deleteGroup(g);
                }
            }
        }
    }
}
