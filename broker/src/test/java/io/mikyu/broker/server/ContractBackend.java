package io.mikyu.broker.server;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;

import java.nio.file.Path;

/**
 * A store {@link MikyuContractTest} runs against: in this module the engine in-process and through a broker
 * ({@link Backend}); other modules extend the test with their own (the Kafka backend).
 */
interface ContractBackend {

    Store open(Path dir, EngineConfig config);

    /** A store with the engine configuration the suite's brokers run with. */
    default Store open(Path dir) {
        return open(dir, RunningBroker.ENGINE);
    }

    /**
     * The in-flight count a test expects: items taken by the application, or with streams also those the broker
     * pushed ahead into the client's buffer (leased to this client, so in flight, as prefetched JMS messages are).
     */
    default int inFlight(int taken, int takenAndPushed) {
        return taken;
    }

    /** The interface under test and what to close after the test. */
    record Store(Mikyu mikyu, Runnable closer) implements AutoCloseable {
        @Override
        public void close() {
            closer.run();
        }
    }
}
