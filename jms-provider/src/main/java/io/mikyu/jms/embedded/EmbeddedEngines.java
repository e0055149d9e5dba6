package io.mikyu.jms.embedded;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The engines connections share: one {@link Mikyu} per data directory per JVM for {@code vm://} (an engine owns
 * its directory exclusively, so two could not coexist anyway), and one dialled {@link Mikyu} per broker URL per JVM
 * for {@code tcp://} and {@code unix://} (one network connection carries every JMS connection's requests, many in
 * flight at once). Each is opened by the first connection and closed by the last.
 */
public final class EmbeddedEngines {

    private static final Map<Object, Shared> OPEN = new HashMap<>();

    private EmbeddedEngines() {
    }

    /** One user's hold on a shared engine; {@link #release()} once. */
    public static final class Handle {
        private final Shared shared;
        private boolean released;

        private Handle(Shared shared) {
            this.shared = shared;
        }

        public Mikyu engine() {
            return shared.engine;
        }

        /** State the engine's users share, kept as long as the engine is open. */
        public ConcurrentMap<String, Object> attachments() {
            return shared.attachments;
        }

        /** Closes the engine if this was its last user. */
        public void release() {
            Mikyu toClose = null;
            synchronized (OPEN) {
                if (released) {
                    return;
                }
                released = true;
                if (--shared.users == 0) {
                    OPEN.remove(shared.key, shared);
                    toClose = shared.engine;
                }
            }
            if (toClose != null) {
                toClose.close();
            }
        }
    }

    private static final class Shared {
        final Object key;
        final Mikyu engine;
        final ConcurrentMap<String, Object> attachments = new ConcurrentHashMap<>();
        int users;

        Shared(Object key, Mikyu engine) {
            this.key = key;
            this.engine = engine;
        }
    }

    /** Opens (or shares) the engine of {@code dataDir}; {@code onOpen} runs once, when it is opened. */
    public static Handle acquire(Path dataDir, EngineConfig config, Consumer<Mikyu> onOpen) {
        Path dir = canonical(dataDir);
        return acquire(dir, () -> Mikyu.open(dir, config), onOpen);
    }

    /**
     * Dials (or shares) the broker at {@code brokerUri}. A shared connection that was lost (the broker stopped) is
     * not handed out again: the next connection dials anew.
     */
    public static Handle acquireRemote(String brokerUri, Map<String, String> dialOptions) {
        Map<String, String> options = new TreeMap<>(dialOptions);
        return acquire("remote " + brokerUri + " " + options, () -> Mikyu.dial(brokerUri, options), m -> { });
    }

    private static Handle acquire(Object key, Supplier<Mikyu> opener, Consumer<Mikyu> onOpen) {
        synchronized (OPEN) {
            Shared shared = OPEN.get(key);
            if (shared != null && !shared.engine.isOpen()) {
                OPEN.remove(key);   // its users keep their handles and release them as usual
                shared = null;
            }
            if (shared == null) {
                Mikyu engine = opener.get();
                try {
                    onOpen.accept(engine);
                } catch (RuntimeException e) {
                    engine.close();
                    throw e;
                }
                shared = new Shared(key, engine);
                OPEN.put(key, shared);
            }
            shared.users++;
            return new Handle(shared);
        }
    }

    private static Path canonical(Path dir) {
        try {
            Files.createDirectories(dir);
            return dir.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use data directory " + dir + ": " + e.getMessage(), e);
        }
    }
}
