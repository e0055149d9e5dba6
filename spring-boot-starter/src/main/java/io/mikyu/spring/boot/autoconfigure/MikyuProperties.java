package io.mikyu.spring.boot.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.jms.autoconfigure.JmsPoolConnectionFactoryProperties;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Configuration of mikyu's JMS connection factory: an embedded store by default, or a {@code mikyu daemon} named
 * by {@link #getUrl() url}. The typed options below and {@link #getOptions() options} become the provider URL's
 * query (docs/jms.md, "URL options"); an option may be given once only.
 */
@ConfigurationProperties("spring.mikyu")
public class MikyuProperties {

    /**
     * The provider URL: vm://DIR for a store in this JVM, tcp://HOST:PORT, tls://HOST:PORT or unix:///PATH for a
     * mikyu daemon. Without it, a store in this JVM in embedded.directory.
     */
    private String url;

    /** User name: checked by the daemon, or by an embedded store with users. */
    private String user;

    /** Password of the user. */
    private String password;

    /**
     * When PERSISTENT sends, acknowledgements and commits return: after the fsync covering them (sync, the
     * provider's default) or after the write to the OS (async).
     */
    private Durability durability;

    /**
     * Client ID of every connection of the factory. A client ID is one connection's at a time, so with a JmsTemplate
     * and listener containers (each with connections of their own) prefer spring.jms.client-id, which the listener
     * containers set on their connection.
     */
    private String clientId;

    /** Most messages a consumer leases ahead of the application (the provider's default: 64; 0: one per receive). */
    private Integer prefetch;

    /** Deliveries before a message goes to its dead-letter queue (the provider's default: 10). */
    private Integer maxAttempts;

    /** Wait before a recovered, rolled-back or failed message is delivered again (the provider's default: 0). */
    private Duration redeliveryDelay;

    /** Lease of a delivered, unacknowledged message, renewed while its session lives (the provider's default: 30s). */
    private Duration lease;

    /** How long an XA branch may take until it is prepared, in whole seconds (the provider's default: 60s). */
    private Duration transactionTimeout;

    /**
     * A daemon only: how long to keep reconnecting to a daemon whose connection was lost (the provider's default:
     * 30s; 0: not at all).
     */
    private Duration reconnect;

    /**
     * Any other option of the provider URL, by its name there: e.g. flushInterval, config, connectTimeout, tls.ca,
     * maxAttempts.QUEUE (in a properties file, [tls.ca] keeps the name as it is).
     */
    private Map<String, String> options = new LinkedHashMap<>();

    private final Embedded embedded = new Embedded();

    @NestedConfigurationProperty
    private final JmsPoolConnectionFactoryProperties pool = new JmsPoolConnectionFactoryProperties();

    /** The store in this JVM, when no url is given. */
    public static class Embedded {

        /**
         * Directory of the store, relative to the working directory unless absolute; unused when url names a
         * daemon.
         */
        private String directory;

        public String getDirectory() {
            return directory;
        }

        public void setDirectory(String directory) {
            this.directory = directory;
        }
    }

    /** When a PERSISTENT send returns. */
    public enum Durability {
        /** After the fsync covering it. */
        SYNC,
        /** After the write to the OS. */
        ASYNC
    }

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public Durability getDurability() {
        return durability;
    }

    public void setDurability(Durability durability) {
        this.durability = durability;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public Integer getPrefetch() {
        return prefetch;
    }

    public void setPrefetch(Integer prefetch) {
        this.prefetch = prefetch;
    }

    public Integer getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(Integer maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public Duration getRedeliveryDelay() {
        return redeliveryDelay;
    }

    public void setRedeliveryDelay(Duration redeliveryDelay) {
        this.redeliveryDelay = redeliveryDelay;
    }

    public Duration getLease() {
        return lease;
    }

    public void setLease(Duration lease) {
        this.lease = lease;
    }

    public Duration getTransactionTimeout() {
        return transactionTimeout;
    }

    public void setTransactionTimeout(Duration transactionTimeout) {
        this.transactionTimeout = transactionTimeout;
    }

    public Duration getReconnect() {
        return reconnect;
    }

    public void setReconnect(Duration reconnect) {
        this.reconnect = reconnect;
    }

    public Map<String, String> getOptions() {
        return options;
    }

    public void setOptions(Map<String, String> options) {
        this.options = options;
    }

    public Embedded getEmbedded() {
        return embedded;
    }

    public JmsPoolConnectionFactoryProperties getPool() {
        return pool;
    }
}
