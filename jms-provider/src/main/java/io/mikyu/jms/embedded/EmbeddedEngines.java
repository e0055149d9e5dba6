package io.mikyu.jms.embedded;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The engines {@code vm://} connections share: one {@link Mikyu} per data directory per JVM, opened by the first
 * connection and closed by the last (an engine owns its directory exclusively, so two could not coexist anyway).
 */
public final class EmbeddedEngines {

    private static final Map<Path, Shared> OPEN = new HashMap<>();

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
        public java.util.concurrent.ConcurrentMap<String, Object> attachments() {
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
                    OPEN.remove(shared.dir);
                    toClose = shared.engine;
                }
            }
            if (toClose != null) {
                toClose.close();
            }
        }
    }

    private static final class Shared {
        final Path dir;
        final Mikyu engine;
        final java.util.concurrent.ConcurrentMap<String, Object> attachments =
                new java.util.concurrent.ConcurrentHashMap<>();
        int users;

        Shared(Path dir, Mikyu engine) {
            this.dir = dir;
            this.engine = engine;
        }
    }

    /** Opens (or shares) the engine of {@code dataDir}. */
    public static Handle acquire(Path dataDir, EngineConfig config, java.util.function.Consumer<Mikyu> onOpen) {
        Path dir = canonical(dataDir);
        synchronized (OPEN) {
            Shared shared = OPEN.get(dir);
            if (shared == null) {
                Mikyu engine = Mikyu.open(dir, config);
                try {
                    onOpen.accept(engine);
                } catch (RuntimeException e) {
                    engine.close();
                    throw e;
                }
                shared = new Shared(dir, engine);
                OPEN.put(dir, shared);
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
