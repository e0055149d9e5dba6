package io.mikyu.broker.server;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;

import java.nio.file.Path;

/**
 * How a specification gets its {@link Mikyu}: opened in-process, or dialled through a broker serving a store
 * opened with the same settings. The same tests run against both; code above the interface must not see a
 * difference.
 */
enum Backend implements ContractBackend {
    IN_PROCESS {
        @Override
        public Store open(Path dir, EngineConfig config) {
            Mikyu mikyu = Mikyu.open(dir, config);
            return new Store(mikyu, mikyu::close);
        }
    },
    /** Dialled with consumer streams (the default): waiting dequeues and fetches take what the broker pushed. */
    REMOTE {
        @Override
        public Store open(Path dir, EngineConfig config) {
            RunningBroker broker = new RunningBroker(dir, config, o -> o);
            return new Store(broker.dial(), broker::close);
        }

        @Override
        public int inFlight(int taken, int takenAndPushed) {
            return takenAndPushed;
        }
    },
    /** Dialled without streams, as a client that does not know them: every dequeue and fetch is a long poll. */
    REMOTE_POLLING {
        @Override
        public Store open(Path dir, EngineConfig config) {
            RunningBroker broker = new RunningBroker(dir, config, o -> o);
            return new Store(broker.dial("?streams=false"), broker::close);
        }
    };

    @Override
    public abstract Store open(Path dir, EngineConfig config);
}
