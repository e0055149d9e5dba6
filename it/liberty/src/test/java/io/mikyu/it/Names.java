package io.mikyu.it;

/** Where Liberty binds the adapter's resources (server.xml), for the applications' lookups. */
public final class Names {

    public static final String CONNECTION_FACTORY = "jms/mikyu/it/ConnectionFactory";
    public static final String QUEUE = "jms/mikyu/it/Queue";
    public static final String TCP_CONNECTION_FACTORY = "jms/mikyu/it/tcp/ConnectionFactory";
    public static final String TCP_QUEUE = "jms/mikyu/it/tcp/Queue";

    // Redelivery and dead letters (RedeliveryIT)
    public static final String REDELIVERY_CONNECTION_FACTORY = "jms/mikyu/it/redelivery/ConnectionFactory";
    public static final String REDELIVERY_TRANSACTED_QUEUE = "jms/mikyu/it/redelivery/TransactedQueue";
    public static final String REDELIVERY_BEAN_MANAGED_QUEUE = "jms/mikyu/it/redelivery/BeanManagedQueue";

    private Names() {
    }
}
