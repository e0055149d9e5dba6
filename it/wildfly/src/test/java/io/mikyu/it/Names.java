package io.mikyu.it;

/** Where WildFly binds the adapter's resources (configure.cli), for the applications' lookups. */
public final class Names {

    public static final String CONNECTION_FACTORY = "java:/jms/mikyu/it/ConnectionFactory";
    public static final String QUEUE = "java:/jms/mikyu/it/Queue";
    public static final String TCP_CONNECTION_FACTORY = "java:/jms/mikyu/it/tcp/ConnectionFactory";
    public static final String TCP_QUEUE = "java:/jms/mikyu/it/tcp/Queue";

    // BrokerOutageIT: a pool on the daemon that gives a lost broker up quickly (reconnect=2s), and its queue
    public static final String OUTAGE_CONNECTION_FACTORY = "java:/jms/mikyu/it/outage/ConnectionFactory";
    public static final String OUTAGE_QUEUE = "java:/jms/mikyu/it/outage/Queue";

    private Names() {
    }
}
