package io.mikyu.bench.jms;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;

import javax.naming.Context;
import javax.naming.InitialContext;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A backlog, the worst day of a queue: the producers send {@code --messages} with nobody consuming, then the
 * consumers start and drain them. Reports the produce rate and the drain rate, and for each phase the heap's
 * high-water mark and the time spent in garbage collection, so that a run at a small heap ({@code -Xmx256m}) shows
 * whether the provider keeps its backlog out of the heap and what that costs compared with a backlog that fits.
 */
final class BacklogRun {

    /** How long a phase may go without progress before the run fails. */
    private static final long STALL_LIMIT_NS = TimeUnit.SECONDS.toNanos(60);

    private final Case workload;
    private final Options options;
    private final Properties jndi;
    private final RunState state = new RunState();
    private final long runId = ThreadLocalRandom.current().nextLong();

    BacklogRun(Case workload, Options options, Properties jndi) {
        this.workload = workload;
        this.options = options;
        this.jndi = jndi;
    }

    Run.Result execute() throws Exception {
        Context context = new InitialContext(jndi);
        try {
            ConnectionFactory factory = (ConnectionFactory) context.lookup(Run.FACTORY);
            Destination queue = (Destination) context.lookup(Run.QUEUE);
            return execute(factory, queue);
        } finally {
            context.close();
        }
    }

    private Run.Result execute(ConnectionFactory factory, Destination queue) throws Exception {
        String provider;
        try (Connection c = factory.createConnection()) {
            ConnectionMetaData md = c.getMetaData();
            provider = md.getJMSProviderName() + " " + md.getProviderVersion();
        }
        byte[] body = new byte[options.size];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        long total = options.messages;
        state.openWindow(0, Long.MAX_VALUE); // every message counts; latency means nothing in a backlog

        // Phase 1: produce the backlog, nobody consuming.
        CountDownLatch go = new CountDownLatch(1);
        List<Producer> producers = new ArrayList<>();
        for (int i = 0; i < workload.producers; i++) {
            long quota = total / workload.producers + (i < total % workload.producers ? 1 : 0);
            Producer p = new Producer(i, factory, queue, workload, body, runId, state, go, quota);
            producers.add(p);
            p.thread.start();
        }
        Phase produce = Phase.begin();
        go.countDown();
        long lastSent = -1;
        long lastProgress = System.nanoTime();
        while (!state.failed() && producers.stream().anyMatch(p -> p.thread.isAlive())) {
            long sent = producers.stream().mapToLong(p -> p.sentSoFar.get()).sum();
            long now = System.nanoTime();
            if (sent != lastSent) {
                lastSent = sent;
                lastProgress = now;
            } else if (now - lastProgress > STALL_LIMIT_NS) {
                state.fail(new IllegalStateException("the producers made no progress for 60 s at " + sent));
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        for (Producer p : producers) {
            p.thread.join();
        }
        produce.end();
        long[] committed = new long[workload.producers];
        long sent = 0;
        for (Producer p : producers) {
            committed[p.id] = p.committed;
            sent += p.committed;
        }

        // Phase 2: drain it.
        Phase drain = Phase.begin();
        CountDownLatch subscribed = new CountDownLatch(workload.consumers);
        List<Consumer> consumers = new ArrayList<>();
        for (int i = 0; i < workload.consumers; i++) {
            Consumer c = new Consumer(i, factory, queue, workload, options.size, runId, state, subscribed);
            consumers.add(c);
            c.thread.start();
        }
        long received = 0;
        long lastReceived = -1;
        lastProgress = System.nanoTime();
        while (!state.failed() && received < sent) {
            received = consumers.stream().mapToLong(c -> c.tally.received.get()).sum();
            long now = System.nanoTime();
            if (received != lastReceived) {
                lastReceived = received;
                lastProgress = now;
            } else if (now - lastProgress > STALL_LIMIT_NS) {
                System.err.println("jms-bench: drain gave up: " + received + " of " + sent + " received");
                break;
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        drain.end();
        TimeUnit.MILLISECONDS.sleep(200); // a duplicate delivered after the last expected message must still be seen
        state.stopConsumers();
        for (Consumer c : consumers) {
            c.thread.join(TimeUnit.SECONDS.toMillis(60));
        }

        List<Tally> tallies = consumers.stream().map(c -> c.tally).toList();
        Verification v = Verification.of(Case.Destination.QUEUE, committed, tallies);
        long redelivered = 0;
        received = 0;
        for (Tally t : tallies) {
            redelivered += t.redelivered;
            received += t.received.get();
        }
        boolean ok = !state.failed() && v.ok() && received == sent;

        Map<String, Object> r = new LinkedHashMap<>();
        r.put("case", workload.label());
        r.put("provider", provider);
        r.put("producers", workload.producers);
        r.put("consumers", workload.consumers);
        r.put("messageBytes", options.size);
        r.put("messages", total);
        r.put("maxHeapMB", Runtime.getRuntime().maxMemory() >> 20);
        r.put("produceS", round(produce.seconds()));
        r.put("producePerS", round(sent / produce.seconds()));
        r.put("produceHeapPeakMB", produce.heapPeakMb);
        r.put("produceLiveHeapPeakMB", produce.liveHeapPeakMb);
        r.put("produceGcMs", produce.gcMillis);
        r.put("produceGcCount", produce.gcCount);
        r.put("drainS", round(drain.seconds()));
        r.put("drainPerS", round(received / drain.seconds()));
        r.put("drainHeapPeakMB", drain.heapPeakMb);
        r.put("drainLiveHeapPeakMB", drain.liveHeapPeakMb);
        r.put("drainGcMs", drain.gcMillis);
        r.put("drainGcCount", drain.gcCount);
        // the drain rate, under the name jms-ratio.sh reads
        r.put("msgsPerS", round(received / drain.seconds()));
        r.put("p50us", 0);
        r.put("p99us", 0);
        r.put("sent", sent);
        r.put("expected", sent);
        r.put("received", received);
        r.put("lost", v.lost());
        r.put("duplicates", v.duplicates());
        r.put("unexpected", v.unexpected());
        r.put("foreign", v.foreign());
        r.put("redelivered", redelivered);
        r.put("verified", ok);
        if (state.failed()) {
            r.put("error", String.valueOf(state.failure()));
        }
        return new Run.Result(ok, r);
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /**
     * Wall time, heap high-water marks and garbage collection of one phase. The heap is sampled every 10 ms: the
     * highest heap in use (garbage included) and the highest heap left in use right after a collection (what the
     * provider keeps alive, the figure that must not grow with the backlog).
     */
    private static final class Phase {
        private final long startNs = System.nanoTime();
        private final long gcMillisAtStart = gcMillis();
        private final long gcCountAtStart = gcCount();
        private final Thread sampler;
        private volatile boolean running = true;
        private volatile long usedMax;
        private volatile long afterGcMax;
        private long endNs;
        long heapPeakMb;
        long liveHeapPeakMb;
        long gcMillis;
        long gcCount;

        private Phase() {
            sampler = new Thread(this::sample, "bench-heap-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        static Phase begin() {
            return new Phase();
        }

        private void sample() {
            List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
            long[] seen = new long[collectors.size()];
            Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
                    .collect(Collectors.toSet());
            while (running) {
                usedMax = Math.max(usedMax, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
                for (int i = 0; i < seen.length; i++) {
                    if (collectors.get(i) instanceof com.sun.management.GarbageCollectorMXBean gc
                            && gc.getCollectionCount() != seen[i] && gc.getLastGcInfo() != null) {
                        seen[i] = gc.getCollectionCount();
                        long afterGc = 0;
                        for (Map.Entry<String, MemoryUsage> pool
                                : gc.getLastGcInfo().getMemoryUsageAfterGc().entrySet()) {
                            afterGc += heapPools.contains(pool.getKey()) ? pool.getValue().getUsed() : 0;
                        }
                        afterGcMax = Math.max(afterGcMax, afterGc);
                    }
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void end() throws InterruptedException {
            endNs = System.nanoTime();
            running = false;
            sampler.join();
            heapPeakMb = usedMax >> 20;
            liveHeapPeakMb = afterGcMax >> 20;
            gcMillis = gcMillis() - gcMillisAtStart;
            gcCount = gcCount() - gcCountAtStart;
        }

        double seconds() {
            return Math.max(endNs - startNs, 1) / 1e9;
        }

        private static long gcMillis() {
            long sum = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                sum += Math.max(gc.getCollectionTime(), 0);
            }
            return sum;
        }

        private static long gcCount() {
            long sum = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                sum += Math.max(gc.getCollectionCount(), 0);
            }
            return sum;
        }
    }
}
