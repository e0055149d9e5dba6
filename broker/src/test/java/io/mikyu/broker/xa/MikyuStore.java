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
            case VM -> new Embedded(dir.resolve("store"), "");
            case VM_AHEAD -> new Embedded(dir.resolve("store"), "prepareAhead=true");
            case TCP -> new OnDaemon(dir.resolve("daemon"));
        };
    }

    abstract Transport transport();

    /** The URL without options. */
    abstract String url();

    /** The URL with these options ({@code "transactionTimeout=3&prefetch=1"}), or without any if empty. */
    String url(String options) {
        return options.isEmpty() ? url() : url() + (url().contains("?") ? "&" : "?") + options;
    }

    /** TCP: SIGKILL to the daemon, then a new daemon on the same data directory. */
    void killAndRestart() throws Exception {
        kill();
        restart();
    }

    /** TCP: SIGKILL to the daemon. */
    abstract void kill() throws Exception;

    /** TCP: a new daemon on the same data directory (on a new port), the old one killed. */
    abstract void restart() throws Exception;

    @Override
    public abstract void close();

    @Override
    public String toString() {
        return transport() + " " + url();
    }

    private static final class Embedded extends MikyuStore {

        private final Path dataDir;
        /** The options every URL of this store carries ({@code prepareAhead=true}), or none. */
        private final String options;

        Embedded(Path dataDir, String options) {
            this.dataDir = dataDir.toAbsolutePath();
            this.options = options;
        }

        @Override
        Transport transport() {
            return options.isEmpty() ? Transport.VM : Transport.VM_AHEAD;
        }

        @Override
        String url() {
            return "vm://" + dataDir + (options.isEmpty() ? "" : "?" + options);
        }

        @Override
        void kill() {
            throw new UnsupportedOperationException("a vm:// engine dies with the JVM that holds it");
        }

        @Override
        void restart() {
            throw new UnsupportedOperationException("a vm:// engine is opened by whichever JVM uses it");
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
        void kill() throws Exception {
            daemon.sigkill();
        }

        @Override
        void restart() throws Exception {
            if (daemon.isAlive()) {
                throw new IllegalStateException("the daemon still runs");
            }
            daemon = Daemon.start(dir, dir.resolve("data"));
        }

        @Override
        public void close() {
            daemon.close();
        }
    }
}
