package io.mikyu.jms.jndi;

import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.MikyuXAConnectionFactory;
import io.mikyu.jms.MikyuQueue;
import io.mikyu.jms.MikyuTopic;

import javax.naming.ConfigurationException;
import javax.naming.Context;
import javax.naming.NamingException;
import javax.naming.spi.InitialContextFactory;
import java.util.Hashtable;
import java.util.Map;
import java.util.TreeMap;

/**
 * A JNDI provider that needs no server: the administered objects are described by the environment, so a
 * {@code jndi.properties} on the class path is enough.
 *
 * <pre>
 * java.naming.factory.initial=io.mikyu.jms.jndi.MikyuInitialContextFactory
 * connectionFactory.MyConnectionFactory=vm://data
 * connectionFactory.DurableFactory=vm://data?clientID=app-1
 * connectionFactory.Broker=tcp://127.0.0.1:7420
 * connectionFactory.Cluster=kafka://kafka1:9092,kafka2:9092?prefix=shop
 * queue.jms/orders=orders
 * topic.prices=prices
 * </pre>
 *
 * <table>
 * <caption>The environment keys</caption>
 * <tr><th>key</th><th>binds</th></tr>
 * <tr><td>{@code connectionFactory.<jndiName>=<url>}</td><td>a {@link MikyuConnectionFactory} for the URL</td></tr>
 * <tr><td>{@code xaConnectionFactory.<jndiName>=<url>}</td><td>a {@link MikyuXAConnectionFactory} for the URL
 * (also a plain connection factory)</td></tr>
 * <tr><td>{@code queue.<jndiName>=<name>}</td><td>a {@link MikyuQueue}</td></tr>
 * <tr><td>{@code topic.<jndiName>=<name>}</td><td>a {@link MikyuTopic}</td></tr>
 * </table>
 *
 * <p>Without any {@code connectionFactory.*} key, {@code ConnectionFactory} is bound to
 * {@link MikyuConnectionFactory#DEFAULT_URL}. Any name {@code dynamicQueues/<name>} or {@code dynamicTopics/<name>}
 * looks up a destination that is not bound. The JDK merges the environment given to {@code new InitialContext(env)}
 * with every {@code jndi.properties} it finds (the application's resource file and
 * {@code <java.home>/conf/jndi.properties}); values given in {@code env} win. The context is read-only, and
 * fixed when created: a URL that does not parse fails here, not at the first lookup.
 */
public final class MikyuInitialContextFactory implements InitialContextFactory {

    /** Prefix of the keys that bind a {@link MikyuConnectionFactory}; the value is its URL. */
    public static final String CONNECTION_FACTORY_PREFIX = "connectionFactory.";
    /** Prefix of the keys that bind a {@link MikyuXAConnectionFactory}; the value is its URL. */
    public static final String XA_CONNECTION_FACTORY_PREFIX = "xaConnectionFactory.";
    /** Prefix of the keys that bind a {@link MikyuQueue}; the value is the queue's name. */
    public static final String QUEUE_PREFIX = "queue.";
    /** Prefix of the keys that bind a {@link MikyuTopic}; the value is the topic's name. */
    public static final String TOPIC_PREFIX = "topic.";
    /** The name the default connection factory is bound to when the environment names none. */
    public static final String DEFAULT_CONNECTION_FACTORY_NAME = "ConnectionFactory";

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) throws NamingException {
        Hashtable<Object, Object> env = environment == null ? new Hashtable<>() : new Hashtable<>(environment);
        return new ReadOnlyContext(env, bindings(env));
    }

    /** The objects the environment describes, by JNDI name, in name order. */
    static Map<String, Object> bindings(Map<?, ?> env) throws NamingException {
        Map<String, Object> bound = new TreeMap<>();
        Map<String, String> keyOf = new TreeMap<>();
        boolean anyFactory = false;
        // sorted, so that errors and list() come out the same on every run
        for (Map.Entry<String, Object> e : new TreeMap<>(stringKeys(env)).entrySet()) {
            String key = e.getKey();
            String prefix = prefixOf(key);
            if (prefix == null) {
                continue;
            }
            String jndiName = key.substring(prefix.length());
            if (jndiName.isEmpty()) {
                throw new ConfigurationException("'" + key + "' names no JNDI name; expected " + prefix + "<jndiName>");
            }
            if (!(e.getValue() instanceof String value) || value.isEmpty()) {
                throw new ConfigurationException("'" + key + "' must have a non-empty text value, not '"
                        + e.getValue() + "'");
            }
            String previous = keyOf.put(jndiName, key);
            if (previous != null) {
                throw new ConfigurationException("'" + jndiName + "' is bound twice: by '" + previous + "' and '"
                        + key + "'");
            }
            anyFactory |= prefix.equals(CONNECTION_FACTORY_PREFIX) || prefix.equals(XA_CONNECTION_FACTORY_PREFIX);
            bound.put(jndiName, create(key, prefix, value));
        }
        if (!anyFactory && !bound.containsKey(DEFAULT_CONNECTION_FACTORY_NAME)) {
            bound.put(DEFAULT_CONNECTION_FACTORY_NAME, new MikyuConnectionFactory(MikyuConnectionFactory.DEFAULT_URL));
        }
        return bound;
    }

    private static Map<String, Object> stringKeys(Map<?, ?> env) {
        Map<String, Object> out = new TreeMap<>();
        env.forEach((k, v) -> {
            if (k instanceof String s) {
                out.put(s, v);
            }
        });
        return out;
    }

    private static String prefixOf(String key) {
        for (String prefix : new String[] {CONNECTION_FACTORY_PREFIX, XA_CONNECTION_FACTORY_PREFIX, QUEUE_PREFIX,
                TOPIC_PREFIX}) {
            if (key.startsWith(prefix)) {
                return prefix;
            }
        }
        return null;
    }

    private static Object create(String key, String prefix, String value) throws NamingException {
        return switch (prefix) {
            case QUEUE_PREFIX -> new MikyuQueue(value);
            case TOPIC_PREFIX -> new MikyuTopic(value);
            default -> {
                try {
                    yield prefix.equals(XA_CONNECTION_FACTORY_PREFIX) ? new MikyuXAConnectionFactory(value)
                            : new MikyuConnectionFactory(value);
                } catch (IllegalArgumentException bad) {
                    ConfigurationException e = new ConfigurationException("'" + key + "': " + bad.getMessage());
                    e.setRootCause(bad);
                    throw e;
                }
            }
        };
    }
}
