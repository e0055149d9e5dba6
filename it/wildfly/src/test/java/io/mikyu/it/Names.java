package io.mikyu.it;

/** Where WildFly binds the adapter's resources (configure.cli), for the applications' lookups. */
public final class Names {

    public static final String CONNECTION_FACTORY = "java:/jms/mikyu/it/ConnectionFactory";
    public static final String QUEUE = "java:/jms/mikyu/it/Queue";
    public static final String TCP_CONNECTION_FACTORY = "java:/jms/mikyu/it/tcp/ConnectionFactory";
    public static final String TCP_QUEUE = "java:/jms/mikyu/it/tcp/Queue";

    private Names() {
    }
}
