package io.mikyu.bench.xa;

import com.arjuna.ats.arjuna.common.CoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.ObjectStoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.arjPropertyManager;
import com.arjuna.common.internal.util.propertyservice.BeanPopulator;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.XAConnectionFactory;
import jakarta.jms.XASession;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import org.HdrHistogram.Histogram;
import org.h2.jdbcx.JdbcDataSource;

import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * XA throughput of one JMS provider, with Narayana as the transaction manager and H2 as the second resource, all in
 * this JVM. Each worker thread owns an XA JMS connection, session and producer and an H2 XA connection, reused across
 * transactions (as a pool would hand them out), and runs, as fast as it can:
 *
 * <pre>
 * tm.begin(); enlist H2 and JMS; INSERT one row; send one PERSISTENT BytesMessage; delist both (TMSUCCESS); tm.commit()
 * </pre>
 *
 * After a warm-up, committed transactions are counted over a measured window, with the latency of each (begin to
 * commit returned). After the run the table must hold exactly one row per committed transaction and the queue exactly
 * one message per committed transaction, with the same sequence numbers and none twice; otherwise the process exits
 * with status 2. Any failed transaction exits with status 3.
 *
 * <p>Providers: {@code artemis} (embedded ActiveMQ Artemis), {@code mikyu} ({@code vm://} engine), {@code noop} (H2
 * and a resource that does nothing: the two-phase commit both providers share, with Narayana's log), {@code none}
 * (H2 alone: Narayana commits it in one phase, without a log).
 */
public final class XaBench {

    /** Counters of the provider's writer fsyncs (count, total µs): reported as a mean, not per transaction. */
    static final String WRITER_FSYNCS = "writerFsyncs";
    static final String WRITER_FSYNC_US = "writerFsyncUs";

    static final String QUEUE = "xa.bench";
    static final String SEQ = "seq";

    private static final int WARMUP = 0;
    private static final int MEASURE = 1;
    private static final int STOP = 2;

    private final Options opts;
    private volatile int phase = WARMUP;
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

    private XaBench(Options opts) {
        this.opts = opts;
    }

    public static void main(String[] args) throws Exception {
        Options opts;
        try {
            opts = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("xa-bench: " + e.getMessage());
            System.err.println(Options.USAGE);
            System.exit(64);
            return;
        }
        int status = new XaBench(opts).run();
        System.out.flush();
        // Narayana's reaper and the providers' pools may leave non-daemon threads behind
        System.exit(status);
    }

    private int run() throws Exception {
        Path base = opts.dir != null ? Files.createDirectories(opts.dir) : Files.createTempDirectory("xa-bench-");
        Path runDir = Files.createTempDirectory(base, opts.provider + "-");
        try {
            return run(runDir);
        } finally {
            if (!opts.keep) {
                deleteTree(opts.dir != null ? runDir : base);
            } else {
                System.out.println("run directory kept: " + runDir);
            }
        }
    }

    private int run(Path runDir) throws Exception {
        TransactionManager tm = narayana(runDir.resolve("narayana"));
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:file:" + runDir.resolve("h2").resolve("bench").toAbsolutePath());
        try (java.sql.Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE bench_tx (id BIGINT PRIMARY KEY, worker INT NOT NULL, note VARCHAR(64) NOT NULL)");
        }

        Provider provider = Provider.open(opts.provider, runDir.resolve("broker"), opts);
        Map<String, Object> result = new LinkedHashMap<>();
        int status;
        try {
            status = measure(tm, h2, provider, result);
        } finally {
            // stops Narayana's status manager, whose exit hook would write into the object store after it is gone
            com.arjuna.ats.arjuna.coordinator.TxControl.disable(true);
            provider.close();
            try (java.sql.Connection c = h2.getConnection(); Statement s = c.createStatement()) {
                s.execute("SHUTDOWN");
            } catch (SQLException ignored) {
                // closed already
            }
        }
        return status;
    }

    private int measure(TransactionManager tm, JdbcDataSource h2, Provider provider, Map<String, Object> result)
            throws Exception {
        byte[] payload = new byte[opts.size];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) ('a' + i % 26);
        }
        List<Worker> workers = new ArrayList<>();
        CountDownLatch ready = new CountDownLatch(opts.threads);
        CountDownLatch go = new CountDownLatch(1);
        for (int i = 0; i < opts.threads; i++) {
            Worker w = new Worker(i, tm, h2, provider, payload, ready, go);
            workers.add(w);
            w.thread.start();
        }
        ready.await();
        for (Worker w : workers) {
            if (w.setupFailure != null) {
                go.countDown();
                throw new IllegalStateException("worker " + w.id + " could not set up", w.setupFailure);
            }
        }
        go.countDown();
        Thread.sleep(opts.warmupSeconds * 1000L);
        StackSampler sampler = null;
        if (opts.stacks != null) {
            sampler = new StackSampler(workers.stream().map(w -> w.thread).toList(), 10);
            sampler.start();
        }
        Map<String, Long> countersBefore = counters(provider);
        long t0 = System.nanoTime();
        phase = MEASURE;
        Thread.sleep(opts.durationSeconds * 1000L);
        phase = STOP;
        long t1 = System.nanoTime();
        Map<String, Long> countersAfter = counters(provider);
        if (sampler != null) {
            sampler.stopAndWrite(opts.stacks);
        }
        for (Worker w : workers) {
            w.thread.join();
        }

        long measured = 0;
        long committed = 0;
        Histogram latency = new Histogram(3_600_000_000L, 3);
        Phases phases = new Phases();
        for (Worker w : workers) {
            measured += w.measured;
            committed += w.committed;
            latency.add(w.latency);
            phases.addAll(w.phases);
        }
        Map<String, Double> breakdown = phases.perTransaction(measured);
        double seconds = (t1 - t0) / 1e9;
        double tps = measured / seconds;

        // verification: rows and messages against the committed transactions
        BitSet rows = new BitSet();
        long rowCount = 0;
        try (java.sql.Connection c = h2.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM bench_tx")) {
            while (rs.next()) {
                rows.set(Math.toIntExact(rs.getLong(1)));
                rowCount++;
            }
        }
        long inDoubt;
        try (java.sql.Connection c = h2.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.IN_DOUBT")) {
            rs.next();
            inDoubt = rs.getLong(1);
        }
        List<String> problems = new ArrayList<>();
        if (rowCount != committed) {
            problems.add("rows " + rowCount + " != committed transactions " + committed);
        }
        if (inDoubt != 0) {
            problems.add(inDoubt + " H2 transactions in doubt");
        }
        long messages = -1;
        long duplicates = 0;
        if (provider.factory() != null) {
            BitSet seen = new BitSet();
            long[] counts = drain(provider.factory(), payload.length, seen);
            messages = counts[0];
            duplicates = counts[1];
            if (messages != committed) {
                problems.add("messages " + messages + " != committed transactions " + committed);
            }
            if (duplicates != 0) {
                problems.add(duplicates + " duplicate messages (same " + SEQ + ")");
            }
            if (counts[2] != 0) {
                problems.add(counts[2] + " messages with a wrong body length");
            }
            if (!seen.equals(rows)) {
                BitSet onlyRows = (BitSet) rows.clone();
                onlyRows.andNot(seen);
                BitSet onlyMsgs = (BitSet) seen.clone();
                onlyMsgs.andNot(rows);
                problems.add("sequence numbers differ: " + onlyRows.cardinality() + " only in rows (first "
                        + onlyRows.nextSetBit(0) + "), " + onlyMsgs.cardinality() + " only in messages (first "
                        + onlyMsgs.nextSetBit(0) + ")");
            }
        }
        boolean verified = problems.isEmpty();

        result.put("provider", opts.provider);
        result.putAll(provider.details());
        result.put("threads", opts.threads);
        result.put("messageBytes", opts.size);
        result.put("warmupS", opts.warmupSeconds);
        result.put("durationS", round(seconds, 3));
        result.put("tps", round(tps, 1));
        result.put("measuredTx", measured);
        result.put("p50us", latency.getValueAtPercentile(50) / 1000.0);
        result.put("p90us", latency.getValueAtPercentile(90) / 1000.0);
        result.put("p99us", latency.getValueAtPercentile(99) / 1000.0);
        result.put("p999us", latency.getValueAtPercentile(99.9) / 1000.0);
        result.put("maxUs", latency.getMaxValue() / 1000.0);
        result.put("meanUs", round(latency.getMean() / 1000.0, 1));
        result.put("committedTx", committed);
        result.put("failedTx", failed.get());
        result.put("rows", rowCount);
        result.put("messages", messages);
        result.put("duplicates", duplicates);
        result.put("verified", verified);
        breakdown.forEach((k, v) -> result.put("us_" + k, v));
        // Approximate by the length of the window's ends: the workers finish their last transactions after t1.
        Map<String, Double> perTx = new LinkedHashMap<>();
        for (Map.Entry<String, Long> c : countersAfter.entrySet()) {
            if (c.getKey().equals(WRITER_FSYNCS) || c.getKey().equals(WRITER_FSYNC_US)) {
                continue;
            }
            long delta = c.getValue() - countersBefore.getOrDefault(c.getKey(), 0L);
            perTx.put(c.getKey(), measured == 0 ? 0.0 : round(delta / (double) measured, 2));
        }
        perTx.forEach((k, v) -> result.put("perTx_" + k, v));
        long fsyncs = countersAfter.getOrDefault(WRITER_FSYNCS, 0L) - countersBefore.getOrDefault(WRITER_FSYNCS, 0L);
        double fsyncMeanUs = fsyncs == 0 ? -1 : round((countersAfter.getOrDefault(WRITER_FSYNC_US, 0L)
                - countersBefore.getOrDefault(WRITER_FSYNC_US, 0L)) / (double) fsyncs, 1);
        if (fsyncMeanUs >= 0) {
            result.put("writerFsyncMeanUs", fsyncMeanUs);
        }

        System.out.printf(Locale.ROOT, "%n== XA bench: %s, %d threads, %d B persistent messages ==%n",
                opts.provider + describeDetails(provider.details()), opts.threads, opts.size);
        System.out.printf(Locale.ROOT, "throughput   %,.1f tx/s (%,d transactions in %.1f s after %d s warm-up)%n",
                tps, measured, seconds, opts.warmupSeconds);
        System.out.printf(Locale.ROOT, "latency      p50 %,.0f  p90 %,.0f  p99 %,.0f  p99.9 %,.0f  max %,.0f us%n",
                latency.getValueAtPercentile(50) / 1000.0, latency.getValueAtPercentile(90) / 1000.0,
                latency.getValueAtPercentile(99) / 1000.0, latency.getValueAtPercentile(99.9) / 1000.0,
                latency.getMaxValue() / 1000.0);
        System.out.printf(Locale.ROOT, "verification %s: %,d committed, %,d failed, %,d rows, %s messages%n",
                verified ? "OK" : "FAILED", committed, failed.get(), rowCount,
                messages < 0 ? "no" : String.format(Locale.ROOT, "%,d", messages));
        StringBuilder where = new StringBuilder();
        breakdown.forEach((k, v) -> {
            if (v >= 0.05) {
                where.append(where.length() == 0 ? "" : "  ").append(k).append(' ')
                        .append(String.format(Locale.ROOT, "%,.0f", v));
            }
        });
        System.out.println("per tx (us)  " + where + "  (mean, per thread; tmLog = commit less the resources' calls)");
        if (!perTx.isEmpty()) {
            StringBuilder counts = new StringBuilder();
            perTx.forEach((k, v) -> counts.append(counts.length() == 0 ? "" : "  ").append(k).append(' ')
                    .append(String.format(Locale.ROOT, "%.2f", v)));
            System.out.println("per tx (n)   " + counts + "  (the provider's writer, over the measured window)");
        }
        if (fsyncMeanUs >= 0) {
            System.out.printf(Locale.ROOT, "fsync (us)   %,.0f mean of the writer's %,d fsyncs (a commit waits for one)%n",
                    fsyncMeanUs, fsyncs);
        }
        for (String p : problems) {
            System.out.println("  MISMATCH: " + p);
        }
        if (firstFailure.get() != null) {
            System.out.println("  first failed transaction:");
            firstFailure.get().printStackTrace(System.out);
        }
        System.out.println("XABENCH_RESULT " + Json.write(result));
        if (!verified) {
            return 2;
        }
        return failed.get() == 0 ? 0 : 3;
    }

    private static String describeDetails(Map<String, Object> details) {
        if (details.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder(" (");
        details.forEach((k, v) -> b.append(b.length() > 2 ? ", " : "").append(k).append(' ').append(v));
        return b.append(')').toString();
    }

    /** Receives every message left on the queue: {count, duplicates, bad bodies}, the sequence numbers into seen. */
    private static long[] drain(XAConnectionFactory factory, int size, BitSet seen) throws JMSException {
        long count = 0;
        long duplicates = 0;
        long badBodies = 0;
        Connection connection = factory instanceof ConnectionFactory cf ? cf.createConnection()
                : factory.createXAConnection();
        try {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(QUEUE));
            connection.start();
            while (true) {
                Message m = consumer.receive(count == 0 ? 10_000 : 3_000);
                if (m == null) {
                    break;
                }
                count++;
                int seq = Math.toIntExact(m.getLongProperty(SEQ));
                if (seen.get(seq)) {
                    duplicates++;
                }
                seen.set(seq);
                if (!(m instanceof BytesMessage bm) || bm.getBodyLength() != size) {
                    badBodies++;
                }
            }
        } finally {
            connection.close();
        }
        return new long[] {count, duplicates, badBodies};
    }

    private final class Worker implements Runnable {
        final int id;
        final Thread thread;
        final TransactionManager tm;
        final JdbcDataSource h2;
        final Provider provider;
        final byte[] payload;
        final CountDownLatch ready;
        final CountDownLatch go;
        final Histogram latency = new Histogram(3_600_000_000L, 3);
        final Phases phases = new Phases();
        volatile Throwable setupFailure;
        long committed;
        long measured;

        Worker(int id, TransactionManager tm, JdbcDataSource h2, Provider provider, byte[] payload,
               CountDownLatch ready, CountDownLatch go) {
            this.id = id;
            this.tm = tm;
            this.h2 = h2;
            this.provider = provider;
            this.payload = payload;
            this.ready = ready;
            this.go = go;
            this.thread = new Thread(this, "xa-worker-" + id);
        }

        @Override
        public void run() {
            XAConnection sql = null;
            jakarta.jms.XAConnection jms = null;
            try {
                XAResource jmsRes;
                MessageProducer producer = null;
                XASession session = null;
                if (provider.factory() != null) {
                    jms = provider.factory().createXAConnection();
                    session = jms.createXASession();
                    Queue queue = session.createQueue(QUEUE);
                    producer = session.createProducer(queue);
                    producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                    jmsRes = session.getXAResource();
                } else {
                    jmsRes = provider.extraResource();
                }
                if (jmsRes != null) {
                    jmsRes = new TimedXAResource(jmsRes, phases, Phases.START_JMS, Phases.END_JMS,
                            Phases.PREPARE_JMS, Phases.COMMIT_JMS);
                }
                sql = h2.getXAConnection();
                XAResource sqlRes = new TimedXAResource(sql.getXAResource(), phases, Phases.START_SQL,
                        Phases.END_SQL, Phases.PREPARE_SQL, Phases.COMMIT_SQL);
                java.sql.Connection c = sql.getConnection();
                PreparedStatement insert =
                        c.prepareStatement("INSERT INTO bench_tx (id, worker, note) VALUES (?, ?, ?)");
                ready.countDown();
                go.await();
                loop(sqlRes, insert, jmsRes, session, producer);
                insert.close();
                c.close();
            } catch (Throwable t) {
                if (ready.getCount() > 0) {
                    setupFailure = t;
                    ready.countDown();
                } else {
                    fail(t);
                }
            } finally {
                try {
                    if (jms != null) {
                        jms.close();
                    }
                } catch (JMSException e) {
                    fail(e);
                }
                try {
                    if (sql != null) {
                        sql.close();
                    }
                } catch (SQLException e) {
                    fail(e);
                }
            }
        }

        private void loop(XAResource sqlRes, PreparedStatement insert, XAResource jmsRes, Session session,
                          MessageProducer producer) throws Exception {
            String note = "worker " + id;
            while (phase != STOP) {
                long seq = sequence.getAndIncrement();
                long start = System.nanoTime();
                int startPhase = phase;
                try {
                    tm.begin();
                    Transaction tx = tm.getTransaction();
                    long t = System.nanoTime();
                    phases.add(Phases.BEGIN, t - start);
                    tx.enlistResource(sqlRes);
                    if (jmsRes != null) {
                        tx.enlistResource(jmsRes);
                    }
                    insert.setLong(1, seq);
                    insert.setInt(2, id);
                    insert.setString(3, note);
                    long t2 = System.nanoTime();
                    insert.executeUpdate();
                    long t3 = System.nanoTime();
                    phases.add(Phases.INSERT, t3 - t2);
                    if (producer != null) {
                        BytesMessage m = session.createBytesMessage();
                        m.writeBytes(payload);
                        m.setLongProperty(SEQ, seq);
                        producer.send(m);
                        phases.add(Phases.SEND, System.nanoTime() - t3);
                    }
                    tx.delistResource(sqlRes, XAResource.TMSUCCESS);
                    if (jmsRes != null) {
                        tx.delistResource(jmsRes, XAResource.TMSUCCESS);
                    }
                    long t4 = System.nanoTime();
                    tm.commit();
                    phases.add(Phases.TM_COMMIT, System.nanoTime() - t4);
                } catch (Exception e) {
                    phases.endTransaction(false);
                    fail(e);
                    try {
                        if (tm.getTransaction() != null) {
                            tm.rollback();
                        }
                    } catch (Exception rollbackFailure) {
                        e.addSuppressed(rollbackFailure);
                    }
                    continue;
                }
                long end = System.nanoTime();
                committed++;
                boolean inWindow = startPhase == MEASURE && phase == MEASURE;
                phases.endTransaction(inWindow);
                if (inWindow) {
                    measured++;
                    latency.recordValue(Math.min(end - start, latency.getHighestTrackableValue()));
                }
            }
        }
    }

    /** The provider's counters; if it cannot give them, the failure carries the workers' first one: often the cause. */
    private Map<String, Long> counters(Provider provider) {
        try {
            return provider.counters();
        } catch (RuntimeException e) {
            Throwable first = firstFailure.get();
            if (first != null) {
                e.addSuppressed(first);
            }
            throw e;
        }
    }

    private void fail(Throwable t) {
        failed.incrementAndGet();
        firstFailure.compareAndSet(null, t);
    }

    /**
     * Narayana in this JVM with its default (durable) settings, its object store in {@code dir}. Must run before
     * anything else touches Narayana: its settings are read once.
     */
    private static TransactionManager narayana(Path dir) throws Exception {
        String store = dir.toAbsolutePath().toString();
        Files.createDirectories(dir);
        arjPropertyManager.getObjectStoreEnvironmentBean().setObjectStoreDir(store);
        BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, "communicationStore").setObjectStoreDir(store);
        BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, "stateStore").setObjectStoreDir(store);
        CoreEnvironmentBean core = arjPropertyManager.getCoreEnvironmentBean();
        core.setNodeIdentifier("xa-bench");
        return com.arjuna.ats.jta.TransactionManager.transactionManager();
    }

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Command-line options. */
    static final class Options {
        static final String USAGE = """
                usage: XaBench --provider artemis|mikyu|noop|none [--threads 4] [--duration 20] [--warmup 5]
                               [--size 1024] [--dir BASE] [--keep] [--artemis-journal auto|ASYNCIO|NIO]
                               [--mikyu-options durability=sync] [--stacks FILE]
                --stacks FILE: sample the workers' stacks every 10 ms of the measured window into FILE
                (collapsed stacks, the flame-graph input format)""";

        String provider;
        int threads = 4;
        int durationSeconds = 20;
        int warmupSeconds = 5;
        int size = 1024;
        Path dir;
        boolean keep;
        String artemisJournal = "auto";
        String mikyuOptions = "durability=sync";
        Path stacks;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--keep")) {
                    o.keep = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("missing value for " + a);
                }
                String v = args[++i];
                switch (a) {
                    case "--provider" -> o.provider = v;
                    case "--threads" -> o.threads = positive(a, v);
                    case "--duration" -> o.durationSeconds = positive(a, v);
                    case "--warmup" -> o.warmupSeconds = Integer.parseInt(v);
                    case "--size" -> o.size = positive(a, v);
                    case "--dir" -> o.dir = Path.of(v);
                    case "--artemis-journal" -> o.artemisJournal = v;
                    case "--mikyu-options" -> o.mikyuOptions = v;
                    case "--stacks" -> o.stacks = Path.of(v);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (o.provider == null || !List.of("artemis", "mikyu", "noop", "none").contains(o.provider)) {
                throw new IllegalArgumentException("--provider must be artemis, mikyu, noop or none");
            }
            return o;
        }

        private static int positive(String name, String v) {
            int n = Integer.parseInt(v);
            if (n <= 0) {
                throw new IllegalArgumentException(name + " must be positive");
            }
            return n;
        }
    }
}
