package io.mikyu.cli;

import io.mikyu.broker.server.BrokerOptions;
import io.mikyu.broker.server.BrokerServer;
import io.mikyu.engine.Mikyu;
import io.mikyu.transport.Endpoint;

import java.nio.file.Path;
import java.util.List;

/** A store served by a broker in this JVM on a free loopback port: what {@code mikyu daemon} runs, for tests. */
final class InProcessDaemon implements AutoCloseable {

    private final Mikyu store;
    private final BrokerServer server;

    InProcessDaemon(Path dataDir) {
        store = Mikyu.open(dataDir);
        try {
            server = BrokerServer.start(store, BrokerOptions.defaults(List.of(Endpoint.parse("tcp://127.0.0.1:0"))));
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    String uri() {
        return server.endpoints().get(0).toString();
    }

    Mikyu store() {
        return store;
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            store.close();
        }
    }
}
