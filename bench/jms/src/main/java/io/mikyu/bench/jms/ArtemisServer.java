package io.mikyu.bench.jms;

import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.io.aio.AIOSequentialFileFactory;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The peer: an ActiveMQ Artemis server, persistence on, security and JMX off, its data in one directory. The journal
 * is ASYNCIO when libaio works on that directory (Artemis' libaio wrapper must be on {@code java.library.path}),
 * else NIO; {@link #details()} says which ran. {@code SYNC} durability is Artemis' default (the journal synced for
 * transactional and non-transactional work), {@code ASYNC} turns both syncs off. It always has an in-VM acceptor
 * ({@code vm://0}) and, given a port, a Netty acceptor on 127.0.0.1.
 *
 * <p>{@link #main} runs one as a process of its own, for the benchmark over TCP: it prints {@value #READY} once it
 * accepts connections and stops on SIGTERM.
 */
final class ArtemisServer implements AutoCloseable {

    static final String READY = "artemis server ready";

    private final EmbeddedActiveMQ server = new EmbeddedActiveMQ();
    private final JournalType journal;
    private final Case.Durability durability;

    ArtemisServer(Path dir, Case.Durability durability, int port) throws Exception {
        this.durability = durability;
        Path journalDir = Files.createDirectories(dir.resolve("journal"));
        journal = AIOSequentialFileFactory.isSupported(journalDir.toFile()) ? JournalType.ASYNCIO : JournalType.NIO;
        boolean sync = durability == Case.Durability.SYNC;
        Configuration config = new ConfigurationImpl();
        config.setName("jms-bench");
        config.setPersistenceEnabled(true);
        config.setSecurityEnabled(false);
        config.setJMXManagementEnabled(false);
        config.setJournalType(journal);
        config.setJournalSyncTransactional(sync);
        config.setJournalSyncNonTransactional(sync);
        config.setJournalDirectory(journalDir.toString());
        config.setBindingsDirectory(dir.resolve("bindings").toString());
        config.setPagingDirectory(dir.resolve("paging").toString());
        config.setLargeMessagesDirectory(dir.resolve("large-messages").toString());
        config.setNodeManagerLockDirectory(dir.resolve("lock").toString());
        config.addAcceptorConfiguration("in-vm", "vm://0");
        if (port > 0) {
            config.addAcceptorConfiguration("netty", "tcp://127.0.0.1:" + port);
        }
        server.setConfiguration(config);
        server.start();
    }

    Map<String, Object> details() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("artemis", server.getActiveMQServer().getVersion().getFullVersion());
        // after start: Artemis falls back to NIO by itself if ASYNCIO fails
        d.put("journal", server.getActiveMQServer().getConfiguration().getJournalType().name());
        d.put("journalSync", durability == Case.Durability.SYNC);
        return d;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    /**
     * {@code ArtemisServer --dir DIR --port PORT --case NAME}: a server on its own until SIGTERM, its journal synced
     * or not as the case's durability says.
     */
    public static void main(String[] args) throws Exception {
        Path dir = null;
        int port = 0;
        Case workload = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[i + 1]);
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--case" -> workload = Case.byLabel(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (dir == null || port <= 0 || workload == null) {
            System.err.println("usage: ArtemisServer --dir DIR --port PORT --case NAME");
            System.exit(64);
            return;
        }
        Case.Durability durability = workload.durability;
        ArtemisServer artemis = new ArtemisServer(Files.createDirectories(dir), durability, port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                artemis.close();
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }, "artemis-stop"));
        System.out.println(READY + " on tcp://127.0.0.1:" + port + " " + Json.write(artemis.details()));
        System.out.flush();
        stopped.await();
    }
}
