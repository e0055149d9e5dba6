package io.mikyu.it;

/** Where WildFly binds the adapter's resources (configure.cli), for the applications' lookups. */
public final class Names {

    public static final String CONNECTION_FACTORY = "java:/jms/mikyu/it/ConnectionFactory";
    public static final String QUEUE = "java:/jms/mikyu/it/Queue";
    public static final String TCP_CONNECTION_FACTORY = "java:/jms/mikyu/it/tcp/ConnectionFactory";
    public static final String TCP_QUEUE = "java:/jms/mikyu/it/tcp/Queue";

    // Redelivery and dead letters (RedeliveryIT); durable and shared topic subscriptions (DurableSubscriptionIT,
    // SharedSubscriptionIT)
    public static final String REDELIVERY_CONNECTION_FACTORY = "java:/jms/mikyu/it/redelivery/ConnectionFactory";
    public static final String REDELIVERY_TRANSACTED_QUEUE = "java:/jms/mikyu/it/redelivery/TransactedQueue";
    public static final String REDELIVERY_BEAN_MANAGED_QUEUE = "java:/jms/mikyu/it/redelivery/BeanManagedQueue";
    public static final String DURABLE_TOPIC = "java:/jms/mikyu/it/DurableTopic";
    public static final String SHARED_TOPIC = "java:/jms/mikyu/it/SharedTopic";
    // XA with a second resource (configure.cli's XA block)
    public static final String XA_DATASOURCE = "java:/jdbc/mikyu/it/XaDataSource";
    public static final String XA_ORDERS = "java:/jms/mikyu/it/xa/Orders";
    public static final String XA_INBOX = "java:/jms/mikyu/it/xa/Inbox";
    public static final String XA_CRASH = "java:/jms/mikyu/it/xa/Crash";
    public static final String TRANSACTION_MANAGER = "java:jboss/TransactionManager";
    // BrokerOutageIT: a pool on the daemon that gives a lost broker up quickly (reconnect=2s), and its queue
    public static final String OUTAGE_CONNECTION_FACTORY = "java:/jms/mikyu/it/outage/ConnectionFactory";
    public static final String OUTAGE_QUEUE = "java:/jms/mikyu/it/outage/Queue";

    private Names() {
    }
}
