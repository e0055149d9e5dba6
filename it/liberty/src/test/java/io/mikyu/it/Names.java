package io.mikyu.it;

/** Where Liberty binds the adapter's resources (server.xml), for the applications' lookups. */
public final class Names {

    public static final String CONNECTION_FACTORY = "jms/mikyu/it/ConnectionFactory";
    public static final String QUEUE = "jms/mikyu/it/Queue";

    private Names() {
    }
}
