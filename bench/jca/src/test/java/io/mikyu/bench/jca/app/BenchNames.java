package io.mikyu.bench.jca.app;

/** Where the server binds each side's pooled connection factory and queues (configure.cli). */
public final class BenchNames {

    /** mikyu's XA pool of the resource adapter. */
    public static final String MIKYU_CONNECTION_FACTORY = "java:/jms/bench/mikyu/ConnectionFactory";
    public static final String MIKYU_CONSUME_QUEUE = "java:/jms/bench/mikyu/consume";
    public static final String MIKYU_SEND_QUEUE = "java:/jms/bench/mikyu/send";

    /** standalone-full's pooled factory of activemq-ra (XA). */
    public static final String ARTEMIS_CONNECTION_FACTORY = "java:/JmsXA";
    public static final String ARTEMIS_CONSUME_QUEUE = "java:/jms/bench/artemis/consume";
    public static final String ARTEMIS_SEND_QUEUE = "java:/jms/bench/artemis/send";

    private BenchNames() {
    }
}
