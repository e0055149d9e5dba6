package io.mikyu.it;

/** Where Liberty binds the adapter's resources (server.xml), for the applications' lookups. */
public final class Names {

    public static final String CONNECTION_FACTORY = "jms/mikyu/it/ConnectionFactory";
    public static final String QUEUE = "jms/mikyu/it/Queue";
    public static final String TCP_CONNECTION_FACTORY = "jms/mikyu/it/tcp/ConnectionFactory";
    public static final String TCP_QUEUE = "jms/mikyu/it/tcp/Queue";

    private Names() {
    }
}
