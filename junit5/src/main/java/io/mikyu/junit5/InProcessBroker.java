package io.mikyu.junit5;

import io.mikyu.broker.server.BrokerOptions;
import io.mikyu.broker.server.BrokerServer;
import io.mikyu.engine.Mikyu;
import io.mikyu.transport.Endpoint;

import java.util.List;

/**
 * The broker option: mikyu's broker server, the one {@code mikyu daemon} runs, serving the test's store on a free
 * loopback port. Only this class names the broker module, which is optional: nothing loads it unless asked for.
 */
final class InProcessBroker implements AutoCloseable {

    static final String SERVER_CLASS = "io.mikyu.broker.server.BrokerServer";

    private final BrokerServer server;

    private InProcessBroker(BrokerServer server) {
        this.server = server;
    }

    /** Serves {@code store} on {@code tcp://127.0.0.1:<free port>}, without users, as a daemon on loopback does. */
    static InProcessBroker serve(Mikyu store) {
        return new InProcessBroker(BrokerServer.start(store,
                BrokerOptions.defaults(List.of(Endpoint.parse("tcp://127.0.0.1:0")))));
    }

    /** {@code tcp://127.0.0.1:<port>}. */
    String address() {
        return server.endpoints().get(0).toString();
    }

    @Override
    public void close() {
        server.close();
    }
}
