package io.mikyu.bench.xa;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.EngineStats;
import io.mikyu.jms.MikyuXAConnectionFactory;
import io.mikyu.jms.embedded.EmbeddedEngines;
import io.mikyu.jms.metrics.JmsMetrics;
import jakarta.jms.XAConnectionFactory;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.io.aio.AIOSequentialFileFactory;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQXAConnectionFactory;

import javax.transaction.xa.XAResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JMS side of a run: an XA connection factory (or, for the floor runs, none), and what it runs on. */
abstract class Provider implements AutoCloseable {

    /** The factory the workers and the verification connect with; null for {@code noop} and {@code none}. */
    abstract XAConnectionFactory factory();

    /** For runs without JMS: the resource enlisted beside H2, or null for H2 alone. */
    XAResource extraResource() {
        return null;
    }

    /** What the summary and the result line report about the provider. */
    Map<String, Object> details() {
        return Map.of();
    }

    /**
     * The provider's own counters of work done so far (for mikyu the writer's cycles, the requests they carried
     * and fsyncs), read before and after the measured window; empty where there are none.
     */
    Map<String, Long> counters() {
        return Map.of();
    }

    @Override
    public void close() throws Exception {
    }

    static Provider open(String name, Path dir, XaBench.Options opts) throws Exception {
        return switch (name) {
            case "artemis" -> new Artemis(dir, opts.artemisJournal);
            case "mikyu" -> new Mikyu(dir, opts.mikyuOptions);
            case "noop" -> new Floor(new NoopXAResource());
            case "none" -> new Floor(null);
            default -> throw new IllegalArgumentException(name);
        };
    }

    /**
     * Embedded ActiveMQ Artemis: persistence on, its journal synced for transactional and non-transactional work
     * (the defaults), ASYNCIO where libaio works on the data directory else NIO, an in-VM acceptor.
     */
    static final class Artemis extends Provider {
        private final EmbeddedActiveMQ server = new EmbeddedActiveMQ();
        private final ActiveMQXAConnectionFactory factory;
        private final JournalType journalType;

        Artemis(Path dir, String journal) throws Exception {
            Files.createDirectories(dir);
            Path journalDir = Files.createDirectories(dir.resolve("journal"));
            journalType = switch (journal) {
                case "auto" -> AIOSequentialFileFactory.isSupported(journalDir.toFile())
                        ? JournalType.ASYNCIO : JournalType.NIO;
                default -> JournalType.valueOf(journal);
            };
            ConfigurationImpl config = new ConfigurationImpl();
            config.setPersistenceEnabled(true);
            config.setSecurityEnabled(false);
            config.setJMXManagementEnabled(false);
            config.setJournalType(journalType);
            config.setJournalSyncTransactional(true);
            config.setJournalSyncNonTransactional(true);
            config.setJournalDirectory(journalDir.toString());
            config.setBindingsDirectory(dir.resolve("bindings").toString());
            config.setPagingDirectory(dir.resolve("paging").toString());
            config.setLargeMessagesDirectory(dir.resolve("large-messages").toString());
            config.setNodeManagerLockDirectory(dir.resolve("lock").toString());
            config.addAcceptorConfiguration("in-vm", "vm://0");
            config.addQueueConfiguration(QueueConfiguration.of(XaBench.QUEUE).setAddress(XaBench.QUEUE)
                    .setRoutingType(RoutingType.ANYCAST).setDurable(true));
            server.setConfiguration(config);
            server.start();
            factory = new ActiveMQXAConnectionFactory("vm://0");
        }

        @Override
        XAConnectionFactory factory() {
            return factory;
        }

        @Override
        Map<String, Object> details() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("journal", journalType.name());
            d.put("journalSync", "transactional+nonTransactional");
            return d;
        }

        @Override
        public void close() throws Exception {
            factory.close();
            server.stop();
        }
    }

    /** mikyu's JMS provider on an engine embedded in this JVM ({@code vm://<dir>?durability=sync}). */
    static final class Mikyu extends Provider {
        private final XAConnectionFactory factory;
        private final String url;
        private final Path dir;
        /** The provider's and its engine's meters: the writer's count of sync requests that waited for an fsync. */
        private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
        /** This bench's own hold on the workers' engine, taken by the first {@link #counters()}. */
        private EmbeddedEngines.Handle hold;

        Mikyu(Path dir, String options) throws java.io.IOException {
            Files.createDirectories(dir);
            this.dir = dir;
            JmsMetrics.addRegistry(meters);
            url = "vm://" + dir.toAbsolutePath() + (options.isEmpty() ? "" : "?" + options);
            factory = new MikyuXAConnectionFactory(url);
        }

        @Override
        XAConnectionFactory factory() {
            return factory;
        }

        @Override
        Map<String, Object> details() {
            return Map.of("options", url.indexOf('?') < 0 ? "" : url.substring(url.indexOf('?') + 1));
        }

        /**
         * The embedded engine's writer counters: the workers' connections share that engine, so this reads it. The
         * first call (while the workers hold their connections) takes a hold of its own on the engine, kept until
         * {@link #close}: the workers may close their connections as soon as the measured window ends, and the last
         * of them would otherwise close the engine under a later call (which then opened the directory a second
         * time while the first close still held it).
         */
        @Override
        Map<String, Long> counters() {
            if (hold == null) {
                hold = EmbeddedEngines.acquire(dir, EngineConfig.defaults(), m -> { });
            }
            io.mikyu.engine.Mikyu engine = hold.engine();
            if (!engine.isOpen()) {
                throw new IllegalStateException("the embedded engine of " + dir + " was closed during the run");
            }
            EngineStats stats = engine.stats();
            Map<String, Long> c = new LinkedHashMap<>();
            c.put("cycles", stats.commits());
            c.put("requests", stats.commitRequests());
            c.put("fsyncs", stats.fsyncs());
            // sync requests (PREPARE, COMMIT) that arrived while an fsync ran and waited for it to end first
            FunctionCounter behind = meters.find("mikyu.engine.sync.behind.fsync").functionCounter();
            c.put("behindFsync", behind == null ? 0L : (long) behind.count());
            // the writer's fsyncs (the COMMITs'; with prepareAhead not the PREPAREs'): how long one takes here
            Timer fsync = meters.find("mikyu.engine.fsync.latency").timer();
            if (fsync != null) {
                c.put(XaBench.WRITER_FSYNCS, fsync.count());
                c.put(XaBench.WRITER_FSYNC_US, (long) fsync.totalTime(java.util.concurrent.TimeUnit.MICROSECONDS));
            }
            return c;
        }

        @Override
        public void close() {
            if (hold != null) {
                hold.release();
                hold = null;
            }
            JmsMetrics.removeRegistry(meters);
        }
    }

    /** No JMS: H2 with a resource that does nothing (two-phase, Narayana logs) or H2 alone (one phase). */
    static final class Floor extends Provider {
        private final XAResource extra;

        Floor(XAResource extra) {
            this.extra = extra;
        }

        @Override
        XAConnectionFactory factory() {
            return null;
        }

        @Override
        XAResource extraResource() {
            return extra;
        }
    }
}
