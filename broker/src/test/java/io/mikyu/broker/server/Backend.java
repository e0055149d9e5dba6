package io.mikyu.broker.server;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;

import java.nio.file.Path;

/**
 * How a specification gets its {@link Mikyu}: opened in-process, or dialled through a broker serving a store
 * opened with the same settings. The same tests run against both; code above the interface must not see a
 * difference.
 */
enum Backend {
    IN_PROCESS {
        @Override
        Store open(Path dir, EngineConfig config) {
            Mikyu mikyu = Mikyu.open(dir, config);
            return new Store(mikyu, mikyu::close);
        }
    },
    REMOTE {
        @Override
        Store open(Path dir, EngineConfig config) {
            RunningBroker broker = new RunningBroker(dir, config, o -> o);
            return new Store(broker.dial(), broker::close);
        }
    };

    abstract Store open(Path dir, EngineConfig config);

    Store open(Path dir) {
        return open(dir, RunningBroker.ENGINE);
    }

    /** The interface under test and what to close after the test. */
    record Store(Mikyu mikyu, Runnable closer) implements AutoCloseable {
        @Override
        public void close() {
            closer.run();
        }
    }
}
