package io.mikyu.broker.xa;

import java.nio.file.Path;

/**
 * The mikyu a test runs against: a {@code vm://} directory (whichever JVM opens it holds the engine) or a
 * {@code mikyu daemon} process the test started on a free loopback port, which {@link #killAndRestart()} kills with
 * SIGKILL and starts again on the same data directory (on a new port).
 */
abstract class MikyuStore implements AutoCloseable {

    static MikyuStore start(Transport transport, Path dir) throws Exception {
        return switch (transport) {
            case VM -> new Embedded(dir.resolve("store"));
            case TCP -> new OnDaemon(dir.resolve("daemon"));
        };
    }

    abstract Transport transport();

    /** The URL without options. */
    abstract String url();

    /** The URL with these options ({@code "transactionTimeout=3&prefetch=1"}), or without any if empty. */
    String url(String options) {
        return options.isEmpty() ? url() : url() + "?" + options;
    }

    /** TCP: SIGKILL to the daemon, then a new daemon on the same data directory. */
    abstract void killAndRestart() throws Exception;

    @Override
    public abstract void close();

    @Override
    public String toString() {
        return transport() + " " + url();
    }

    private static final class Embedded extends MikyuStore {

        private final Path dataDir;

        Embedded(Path dataDir) {
            this.dataDir = dataDir.toAbsolutePath();
        }

        @Override
        Transport transport() {
            return Transport.VM;
        }

        @Override
        String url() {
            return "vm://" + dataDir;
        }

        @Override
        void killAndRestart() {
            throw new UnsupportedOperationException("a vm:// engine dies with the JVM that holds it");
        }

        @Override
        public void close() {
        }
    }

    private static final class OnDaemon extends MikyuStore {

        private final Path dir;
        private Daemon daemon;

        OnDaemon(Path dir) throws Exception {
            this.dir = dir;
            this.daemon = Daemon.start(dir, dir.resolve("data"));
        }

        @Override
        Transport transport() {
            return Transport.TCP;
        }

        @Override
        String url() {
            return daemon.url();
        }

        Daemon daemon() {
            return daemon;
        }

        @Override
        void killAndRestart() throws Exception {
            daemon.sigkill();
            daemon = Daemon.start(dir, dir.resolve("data"));
        }

        @Override
        public void close() {
            daemon.close();
        }
    }
}
