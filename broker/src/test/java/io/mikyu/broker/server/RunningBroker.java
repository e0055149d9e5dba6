package io.mikyu.broker.server;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.transport.Endpoint;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** A store in a temporary directory served by a broker on a free loopback port, for tests. */
final class RunningBroker implements AutoCloseable {

    static final EngineConfig ENGINE = EngineConfig.builder().maxRecordBytes(256 << 10).build();

    private final Mikyu store;
    private final BrokerServer server;
    private final List<Mikyu> clients = new ArrayList<>();

    RunningBroker(Path dir) {
        this(dir, ENGINE, o -> o);
    }

    RunningBroker(Path dir, EngineConfig engine, UnaryOperator<BrokerOptions> options) {
        this(dir, engine, options, List.of(Endpoint.parse("tcp://127.0.0.1:0")));
    }

    RunningBroker(Path dir, EngineConfig engine, UnaryOperator<BrokerOptions> options, List<Endpoint> endpoints) {
        store = Mikyu.open(dir, engine);
        try {
            server = BrokerServer.start(store, options.apply(BrokerOptions.defaults(endpoints)), engine.timeSource());
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** The first endpoint, as a URI to dial. */
    String uri() {
        return server.endpoints().get(0).toString();
    }

    Endpoint endpoint() {
        return server.endpoints().get(0);
    }

    List<Endpoint> endpoints() {
        return server.endpoints();
    }

    /** A new client connection; closed with the broker. */
    Mikyu dial() {
        return dial("");
    }

    /** A new client connection with options ({@code "?streamCredit=4"}); closed with the broker. */
    Mikyu dial(String options) {
        Mikyu client = Mikyu.dial(uri() + options);
        clients.add(client);
        return client;
    }

    BrokerServer server() {
        return server;
    }

    /** The store the broker serves, in-process. */
    Mikyu store() {
        return store;
    }

    @Override
    public void close() {
        clients.forEach(Mikyu::close);
        try {
            server.close();
        } finally {
            store.close();
        }
    }
}
