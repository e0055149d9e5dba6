package io.mikyu.spring.boot.embedded;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.jms.embedded.EmbeddedEngines;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;

import java.nio.file.Path;

/**
 * The store of a {@code vm://} URL, held open while the application runs: opened at start-up, so that a directory
 * another process holds fails the start with the holder named, and released by {@link #close()}. The provider
 * shares one store among the connections of a JVM and closes it with the last of them, so the store closes once
 * this hold and the application's connections (its listener containers' and the caching factory's, which the
 * context closes too) are all released.
 */
public final class MikyuEmbeddedStore implements AutoCloseable {

    private final EmbeddedEngines.Handle handle;

    private MikyuEmbeddedStore(EmbeddedEngines.Handle handle) {
        this.handle = handle;
    }

    /**
     * Opens the store of {@code directory} through a first connection of {@code factory} (whose URL names that
     * directory), so that the provider's own opening work runs (it clears what a JVM that died left of temporary
     * destinations), and keeps a hold on it.
     */
    public static MikyuEmbeddedStore open(ConnectionFactory factory, Path directory, String user, String password)
            throws JMSException {
        try (Connection first = user == null ? factory.createConnection() : factory.createConnection(user, password)) {
            // While the first connection holds the store, acquiring its directory shares the same open engine: the
            // configuration given here is not used.
            return new MikyuEmbeddedStore(EmbeddedEngines.acquire(directory, EngineConfig.defaults(), engine -> { }));
        }
    }

    /** The engine of the store, for its state and statistics. */
    public Mikyu engine() {
        return handle.engine();
    }

    public boolean isOpen() {
        return handle.engine().isOpen();
    }

    /** Releases this hold; the store closes if no connection of the application holds it any longer. */
    @Override
    public void close() {
        handle.release();
    }
}
