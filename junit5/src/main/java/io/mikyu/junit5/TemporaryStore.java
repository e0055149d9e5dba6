package io.mikyu.junit5;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.embedded.EmbeddedEngines;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * One test store: a temporary directory, the engine on it (shared, as for any {@code vm://} connection of the JVM),
 * the objects tests get, and the broker if asked for. {@link #close()} closes all of it and deletes the directory.
 */
final class TemporaryStore implements AutoCloseable {

    private final StoreOptions options;
    private final Path dir;
    private final String url;
    private Connection keeper;
    private EmbeddedEngines.Handle handle;
    private Mikyu engine;
    private Mikyu view;
    private MikyuConnectionFactory connectionFactory;
    private MikyuQueues queues;
    private InProcessBroker broker;
    private MikyuBroker brokerInfo;
    private boolean closed;

    private TemporaryStore(StoreOptions options, Path dir) {
        this.options = options;
        this.dir = dir;
        this.url = options.vmUrl(dir);
    }

    /** Makes the directory, opens the store and, if asked for, its broker; on failure leaves nothing behind. */
    static TemporaryStore open(StoreOptions options) {
        if (options.broker() && !brokerOnClassPath()) {
            throw new ExtensionConfigurationException("the broker option needs mikyu's broker on the test class path:"
                    + " add the test dependency io.mikyu:mikyu-broker");
        }
        Path dir;
        try {
            dir = options.parent() == null ? Files.createTempDirectory("mikyu-test-")
                    : Files.createTempDirectory(Files.createDirectories(options.parent()), "mikyu-test-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a temporary directory for the test store: " + e.getMessage(), e);
        }
        TemporaryStore store = new TemporaryStore(options, dir);
        try {
            store.start();
            return store;
        } catch (RuntimeException | Error e) {
            try {
                store.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private void start() {
        connectionFactory = new MikyuConnectionFactory(url);
        try {
            // Opens the engine as any vm:// connection does, and keeps it open while the store lives.
            keeper = connectionFactory.createConnection();
        } catch (JMSException e) {
            throw new IllegalStateException("cannot open the test store " + url + ": " + e.getMessage(), e);
        }
        // The engine the keeper opened: EmbeddedEngines shares one per directory, so nothing is opened here.
        handle = EmbeddedEngines.acquire(dir, EngineConfig.defaults(), opened -> { });
        engine = handle.engine();
        view = unclosable(engine);
        if (options.broker()) {
            broker = InProcessBroker.serve(engine);
            brokerInfo = new MikyuBroker(broker.address(), options.brokerUrl(broker.address()));
        }
        queues = new MikyuQueues(view, new MikyuConnectionFactory(url + "&prefetch=0"), options.timeout());
    }

    private static boolean brokerOnClassPath() {
        try {
            Class.forName(InProcessBroker.SERVER_CLASS, false, TemporaryStore.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** The engine for tests: everything but {@code close()}, which is the extension's to do. */
    private static Mikyu unclosable(Mikyu engine) {
        return (Mikyu) Proxy.newProxyInstance(Mikyu.class.getClassLoader(), new Class<?>[] {Mikyu.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "close" -> null;
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "test store " + engine.location();
                    default -> {
                        try {
                            yield method.invoke(engine, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }
                });
    }

    Path directory() {
        return dir;
    }

    String url() {
        return url;
    }

    MikyuConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    Mikyu mikyu() {
        return view;
    }

    MikyuQueues queues() {
        return queues;
    }

    /** The broker; {@link ExtensionConfigurationException} without the broker option. */
    MikyuBroker broker() {
        if (brokerInfo == null) {
            throw new ExtensionConfigurationException("the test store has no broker: ask for one with"
                    + " @MikyuTest(broker = true) or MikyuExtension.builder().broker()");
        }
        return brokerInfo;
    }

    /**
     * Closes the helper's connection, the broker, the engine (also if connections the test made are still open:
     * they fail from now on) and deletes the directory. Every step is tried; the first failure is thrown with the
     * others suppressed.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        failure = attempt(failure, () -> {
            if (queues != null) {
                queues.close();
            }
        });
        failure = attempt(failure, () -> {
            if (broker != null) {
                broker.close();
            }
        });
        failure = attempt(failure, () -> {
            if (handle != null) {
                handle.release();
            }
        });
        failure = attempt(failure, () -> {
            if (keeper != null) {
                keeper.close();
            }
        });
        failure = attempt(failure, () -> {
            if (engine != null) {
                engine.close();   // idempotent; closes it under connections the test left open
            }
        });
        failure = attempt(failure, () -> deleteRecursively(dir));
        if (failure != null) {
            throw failure;
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private static RuntimeException attempt(RuntimeException failure, Step step) {
        try {
            step.run();
            return failure;
        } catch (Exception e) {
            RuntimeException wrapped = e instanceof RuntimeException r ? r
                    : new IllegalStateException("cannot close the test store: " + e.getMessage(), e);
            if (failure == null) {
                return wrapped;
            }
            failure.addSuppressed(wrapped);
            return failure;
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    @Override
    public String toString() {
        return "test store " + url;
    }
}
