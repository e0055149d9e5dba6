package io.mikyu.jca.settings;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The provider's configuration as JavaBean properties, the one configuration surface of the adapter: the connection
 * URL, the credentials, and every option of a mikyu URL ({@link io.mikyu.jms.config.ProviderOptions}) under the
 * same name, with the same default ({@code tls.cert} and the other {@code tls.*} options as {@code tlsCert}, ...,
 * since a dot cannot be in a JavaBean property). A property left unset (null) leaves the URL's own option, or the
 * option's default. The resource adapter holds these as defaults for everything it makes; a connection definition
 * (pool) overrides any of them ({@link ConnectionSettings} merges them, in one place).
 *
 * <p>Every setter has its getter of the same type: servers (WildFly) refuse a config property without both.
 */
public abstract class ProviderProperties implements Serializable, SettingsLayer {

    private static final long serialVersionUID = 1L;

    private String url;
    private String user;
    private String password;
    /** URL options as set, by option name; values as the URL would carry them. */
    private final LinkedHashMap<String, String> options = new LinkedHashMap<>();

    // ------------------------------------------------------------------------------------------ url, credentials

    /** The connection URL: {@code vm://<data-dir>}, {@code tcp://host:port}, {@code tls://...}, {@code unix://...}. */
    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = blankToNull(url);
    }

    /** User of the connections (given to {@code createConnection(user, password)}), unless sign-on says otherwise. */
    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = blankToNull(user);
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password == null || password.isEmpty() ? null : password;
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public String password() {
        return password;
    }

    @Override
    public synchronized Map<String, String> options() {
        return new LinkedHashMap<>(options);
    }

    // ------------------------------------------------------------------------------------------ JMS options

    public String getDurability() {
        return option("durability");
    }

    public void setDurability(String v) {
        option("durability", v);
    }

    public Integer getMaxAttempts() {
        return intOption("maxAttempts");
    }

    public void setMaxAttempts(Integer v) {
        option("maxAttempts", v);
    }

    public Integer getRedeliveryDelay() {
        return intOption("redeliveryDelay");
    }

    public void setRedeliveryDelay(Integer v) {
        option("redeliveryDelay", v);
    }

    public Integer getPrefetch() {
        return intOption("prefetch");
    }

    public void setPrefetch(Integer v) {
        option("prefetch", v);
    }

    public Integer getLeaseMillis() {
        return intOption("leaseMillis");
    }

    public void setLeaseMillis(Integer v) {
        option("leaseMillis", v);
    }

    public Integer getTransactionTimeout() {
        return intOption("transactionTimeout");
    }

    public void setTransactionTimeout(Integer v) {
        option("transactionTimeout", v);
    }

    public String getClientID() {
        return option("clientID");
    }

    public void setClientID(String v) {
        option("clientID", v);
    }

    public String getUsers() {
        return option("users");
    }

    public void setUsers(String v) {
        option("users", v);
    }

    public Boolean getAllowAnonymous() {
        return boolOption("allowAnonymous");
    }

    public void setAllowAnonymous(Boolean v) {
        option("allowAnonymous", v);
    }

    public String getConfig() {
        return option("config");
    }

    public void setConfig(String v) {
        option("config", v);
    }

    // ------------------------------------------------------------------------------------------ broker options

    public String getReconnect() {
        return option("reconnect");
    }

    public void setReconnect(String v) {
        option("reconnect", v);
    }

    public String getClientName() {
        return option("clientName");
    }

    public void setClientName(String v) {
        option("clientName", v);
    }

    public String getConnectTimeout() {
        return option("connectTimeout");
    }

    public void setConnectTimeout(String v) {
        option("connectTimeout", v);
    }

    public String getRequestTimeout() {
        return option("requestTimeout");
    }

    public void setRequestTimeout(String v) {
        option("requestTimeout", v);
    }

    public Integer getMaxFrameBytes() {
        return intOption("maxFrameBytes");
    }

    public void setMaxFrameBytes(Integer v) {
        option("maxFrameBytes", v);
    }

    public String getHeartbeat() {
        return option("heartbeat");
    }

    public void setHeartbeat(String v) {
        option("heartbeat", v);
    }

    public Boolean getStreams() {
        return boolOption("streams");
    }

    public void setStreams(Boolean v) {
        option("streams", v);
    }

    public Integer getStreamCredit() {
        return intOption("streamCredit");
    }

    public void setStreamCredit(Integer v) {
        option("streamCredit", v);
    }

    public Long getStreamCreditBytes() {
        String v = option("streamCreditBytes");
        return v == null ? null : Long.valueOf(v);
    }

    public void setStreamCreditBytes(Long v) {
        option("streamCreditBytes", v);
    }

    public String getStreamIdle() {
        return option("streamIdle");
    }

    public void setStreamIdle(String v) {
        option("streamIdle", v);
    }

    public String getTlsCert() {
        return option("tls.cert");
    }

    public void setTlsCert(String v) {
        option("tls.cert", v);
    }

    public String getTlsKey() {
        return option("tls.key");
    }

    public void setTlsKey(String v) {
        option("tls.key", v);
    }

    public String getTlsKeyPassword() {
        return option("tls.keyPassword");
    }

    public void setTlsKeyPassword(String v) {
        option("tls.keyPassword", v);
    }

    public String getTlsKeystore() {
        return option("tls.keystore");
    }

    public void setTlsKeystore(String v) {
        option("tls.keystore", v);
    }

    public String getTlsKeystorePassword() {
        return option("tls.keystorePassword");
    }

    public void setTlsKeystorePassword(String v) {
        option("tls.keystorePassword", v);
    }

    public String getTlsCa() {
        return option("tls.ca");
    }

    public void setTlsCa(String v) {
        option("tls.ca", v);
    }

    public String getTlsTruststore() {
        return option("tls.truststore");
    }

    public void setTlsTruststore(String v) {
        option("tls.truststore", v);
    }

    public String getTlsTruststorePassword() {
        return option("tls.truststorePassword");
    }

    public void setTlsTruststorePassword(String v) {
        option("tls.truststorePassword", v);
    }

    // ------------------------------------------------------------------------------------------ engine (vm://)

    public String getFlushInterval() {
        return option("flushInterval");
    }

    public void setFlushInterval(String v) {
        option("flushInterval", v);
    }

    public String getMaxRecordBytes() {
        return option("maxRecordBytes");
    }

    public void setMaxRecordBytes(String v) {
        option("maxRecordBytes", v);
    }

    public String getMaxBatchBytes() {
        return option("maxBatchBytes");
    }

    public void setMaxBatchBytes(String v) {
        option("maxBatchBytes", v);
    }

    public String getMinFreeDiskBytes() {
        return option("minFreeDiskBytes");
    }

    public void setMinFreeDiskBytes(String v) {
        option("minFreeDiskBytes", v);
    }

    public String getCacheBytesPerQueue() {
        return option("cacheBytesPerQueue");
    }

    public void setCacheBytesPerQueue(String v) {
        option("cacheBytesPerQueue", v);
    }

    public Integer getPaceProducersAbove() {
        return intOption("paceProducersAbove");
    }

    public void setPaceProducersAbove(Integer v) {
        option("paceProducersAbove", v);
    }

    public String getHousekeepingInterval() {
        return option("housekeepingInterval");
    }

    public void setHousekeepingInterval(String v) {
        option("housekeepingInterval", v);
    }

    public Boolean getVerifyChecksumsOnRead() {
        return boolOption("verifyChecksumsOnRead");
    }

    public void setVerifyChecksumsOnRead(Boolean v) {
        option("verifyChecksumsOnRead", v);
    }

    public String getCorruptionPolicy() {
        return option("corruptionPolicy");
    }

    public void setCorruptionPolicy(String v) {
        option("corruptionPolicy", v);
    }

    public String getTransientMemoryLimit() {
        return option("transientMemoryLimit");
    }

    public void setTransientMemoryLimit(String v) {
        option("transientMemoryLimit", v);
    }

    public String getTransientMemoryLimitPerQueue() {
        return option("transientMemoryLimitPerQueue");
    }

    public void setTransientMemoryLimitPerQueue(String v) {
        option("transientMemoryLimitPerQueue", v);
    }

    public String getTransientMemoryPolicy() {
        return option("transientMemoryPolicy");
    }

    public void setTransientMemoryPolicy(String v) {
        option("transientMemoryPolicy", v);
    }

    public String getTransientMemoryBlockTimeout() {
        return option("transientMemoryBlockTimeout");
    }

    public void setTransientMemoryBlockTimeout(String v) {
        option("transientMemoryBlockTimeout", v);
    }

    // ------------------------------------------------------------------------------------------ storage

    private synchronized String option(String name) {
        return options.get(name);
    }

    private synchronized void option(String name, Object value) {
        String text = value == null ? null : value.toString().trim();
        if (text == null || text.isEmpty()) {
            options.remove(name);
        } else {
            options.put(name, text);
        }
    }

    private Integer intOption(String name) {
        String v = option(name);
        return v == null ? null : Integer.valueOf(v);
    }

    private Boolean boolOption(String name) {
        String v = option(name);
        return v == null ? null : Boolean.valueOf(v);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** Equal when every property is: a connection definition's identity is its configuration (JCA 5.3.x). */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || o.getClass() != getClass()) {
            return false;
        }
        ProviderProperties p = (ProviderProperties) o;
        return Objects.equals(url, p.url) && Objects.equals(user, p.user) && Objects.equals(password, p.password)
                && options().equals(p.options());
    }

    @Override
    public int hashCode() {
        return Objects.hash(getClass(), url, user, options());
    }
}
