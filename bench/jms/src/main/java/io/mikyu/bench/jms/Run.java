package io.mikyu.bench.jms;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import org.HdrHistogram.Histogram;

import javax.naming.Context;
import javax.naming.InitialContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One run of one case against the provider a JNDI environment names, through {@code jakarta.jms} only: looks up
 * {@value #FACTORY} and the destination ({@value #QUEUE} or {@value #TOPIC}), starts the consumers, then the
 * producers; after the warm-up, measures for the duration; then stops the producers, waits until the consumers have
 * everything that was committed (or nothing more arrives for {@link #DRAIN_IDLE_NS}), and verifies it.
 *
 * <p>At a fixed rate the window opens only once the warm-up's backlog has drained and the producers keep to their
 * schedule (at most {@link #SETTLE_LIMIT_NS} more), because latency is taken from the scheduled send time and would
 * otherwise carry the cold start into the window.
 */
final class Run {

    static final String FACTORY = "ConnectionFactory";
    static final String QUEUE = "benchQueue";
    static final String TOPIC = "benchTopic";

    private static final long DRAIN_IDLE_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long LATE_DUPLICATES_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long SETTLE_LIMIT_NS = TimeUnit.SECONDS.toNanos(30);
    /** How long clients may take to start, and to stop once told. */
    private static final long START_LIMIT_S = 60;

    private final Case workload;
    private final Options options;
    private final Properties jndi;
    private final RunState state = new RunState();
    private final long runId = ThreadLocalRandom.current().nextLong();

    Run(Case workload, Options options, Properties jndi) {
        this.workload = workload;
        this.options = options;
        this.jndi = jndi;
    }

    Result execute() throws Exception {
        return Setup.lookUp(jndi, workload.destination == Case.Destination.TOPIC ? TOPIC : QUEUE, options.size,
                this::execute);
    }

    private Result execute(Setup setup) throws Exception {
        ConnectionFactory factory = setup.factory();
        Destination destination = setup.destination();
        byte[] body = setup.body();
        CountDownLatch subscribed = new CountDownLatch(workload.consumers);
        CountDownLatch go = new CountDownLatch(1);
        List<Consumer> consumers = new ArrayList<>();
        for (int i = 0; i < workload.consumers; i++) {
            Consumer c = new Consumer(i, factory, destination, workload, options.size, runId, state, subscribed);
            consumers.add(c);
            c.thread.start();
        }
        if (!subscribed.await(START_LIMIT_S, TimeUnit.SECONDS) || state.failed()) {
            state.stopConsumers();
            throw new IllegalStateException("the consumers did not start", state.failure());
        }
        List<Producer> producers = new ArrayList<>();
        for (int i = 0; i < workload.producers; i++) {
            Producer p = new Producer(i, factory, destination, workload, body, runId, state, go);
            producers.add(p);
            p.thread.start();
        }

        long warmupNs = TimeUnit.SECONDS.toNanos(options.warmupSeconds);
        long durationNs = TimeUnit.SECONDS.toNanos(options.durationSeconds);
        long begin = System.nanoTime();
        if (workload.ratePerProducer == 0) {
            state.openWindow(begin + warmupNs, begin + warmupNs + durationNs);
        }
        go.countDown();
        double settleSeconds = 0;
        boolean settled = true;
        if (workload.ratePerProducer > 0) {
            RunState.waitUntil(begin + warmupNs);
            long settleStart = System.nanoTime();
            settled = settle(producers, consumers, settleStart);
            long now = System.nanoTime();
            settleSeconds = (now - settleStart) / 1e9;
            state.openWindow(now, now + durationNs);
        }
        RunState.waitUntil(state.windowStart());
        long cpuAtStart = ProcessSampler.cpuTimeNanos();
        RunState.waitUntil(state.windowEnd());
        long cpuAtEnd = ProcessSampler.cpuTimeNanos();
        for (Producer p : producers) {
            joinOrFail(p.thread);
        }
        long producersDone = System.nanoTime();

        long[] committed = new long[workload.producers];
        long sentTotal = 0;
        long sentInWindow = 0;
        for (Producer p : producers) {
            committed[p.id] = p.committed;
            sentTotal += p.committed;
            sentInWindow += p.sentInWindow;
        }
        long expected = workload.expectedFor(sentTotal);
        drain(consumers, expected);
        double drainSeconds = (System.nanoTime() - producersDone) / 1e9;
        state.stopConsumers();
        for (Consumer c : consumers) {
            joinOrFail(c.thread);
        }

        List<Tally> tallies = consumers.stream().map(c -> c.tally).toList();
        Verification v = Verification.of(workload.destination, committed, tallies);
        Histogram latency = new Histogram(Tally.MAX_LATENCY_NS, 3);
        long receivedInWindow = 0;
        long redelivered = 0;
        long received = 0;
        for (Tally t : tallies) {
            latency.add(t.latency);
            receivedInWindow += t.receivedInWindow;
            redelivered += t.redelivered;
            received += t.received.get();
        }
        double window = durationNs / 1e9;
        boolean ok = !state.failed() && v.ok() && received == expected;

        Map<String, Object> r = setup.fields(workload);
        r.put("warmupS", options.warmupSeconds);
        r.put("durationS", options.durationSeconds);
        r.put("settleS", round(settleSeconds));
        // false: at a fixed rate the window opened on a backlog (its latency is the backlog's), see settle
        r.put("settled", settled);
        r.put("msgsPerS", round(receivedInWindow / window));
        r.put("sentPerS", round(sentInWindow / window));
        r.put("p50us", micros(latency, 50));
        r.put("p90us", micros(latency, 90));
        r.put("p99us", micros(latency, 99));
        r.put("p999us", micros(latency, 99.9));
        r.put("maxUs", latency.getTotalCount() == 0 ? 0 : round(latency.getMaxValue() / 1e3));
        r.put("latencyCount", latency.getTotalCount());
        putCounts(r, sentTotal, expected, received, v, redelivered);
        r.put("drainS", round(drainSeconds));
        r.put("processCpuPct", cpuAtStart < 0 ? -1 : round(100.0 * (cpuAtEnd - cpuAtStart) / durationNs));
        return Result.of(ok, r, state);
    }

    /**
     * Rate cases: waits until the backlog is ~2 ms of traffic plus open batches and every producer is on time;
     * false if that did not happen within {@link #SETTLE_LIMIT_NS}.
     */
    private boolean settle(List<Producer> producers, List<Consumer> consumers, long settleStart)
            throws InterruptedException {
        long allowed = Math.max(10, workload.ratePerProducer * workload.producers / 500L)
                + (long) workload.producers * Math.max(1, workload.transactionBatch);
        allowed = workload.expectedFor(allowed);
        while (!state.failed() && System.nanoTime() - settleStart < SETTLE_LIMIT_NS) {
            long sent = 0;
            boolean onTime = true;
            for (Producer p : producers) {
                sent += p.sentSoFar.get();
                onTime &= p.behindSchedule < TimeUnit.MILLISECONDS.toNanos(2);
            }
            long got = 0;
            for (Consumer c : consumers) {
                got += c.tally.received.get();
            }
            if (workload.expectedFor(sent) - got <= allowed && onTime) {
                return true;
            }
            Thread.sleep(1);
        }
        return false;
    }

    /** Waits for {@code expected} messages, or until none arrived for {@link #DRAIN_IDLE_NS}; then for late copies. */
    private void drain(List<Consumer> consumers, long expected) throws InterruptedException {
        long last = -1;
        long lastProgress = System.nanoTime();
        while (!state.failed()) {
            long got = 0;
            for (Consumer c : consumers) {
                got += c.tally.received.get();
            }
            long now = System.nanoTime();
            if (got >= expected) {
                break;
            }
            if (got != last) {
                last = got;
                lastProgress = now;
            } else if (now - lastProgress > DRAIN_IDLE_NS) {
                System.err.println("jms-bench: drain gave up: " + got + " of " + expected + " received");
                break;
            }
            Thread.sleep(10);
        }
        // a duplicate delivered after the last expected message must still be seen
        RunState.waitUntil(System.nanoTime() + LATE_DUPLICATES_NS);
    }

    /** A client stuck in a send or a receive fails the run instead of holding it forever. */
    private void joinOrFail(Thread client) throws InterruptedException {
        client.join(TimeUnit.SECONDS.toMillis(START_LIMIT_S));
        if (client.isAlive()) {
            state.fail(new IllegalStateException(client.getName() + " did not stop within " + START_LIMIT_S + " s"));
        }
    }

    private static double micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : round(h.getValueAtPercentile(percentile) / 1e3);
    }

    /** {@code v} to one decimal place, as results show rates and times. */
    static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** The message counts and the verification's findings, in that order, into a result's fields. */
    static void putCounts(Map<String, Object> r, long sent, long expected, long received, Verification v,
                          long redelivered) {
        r.put("sent", sent);
        r.put("expected", expected);
        r.put("received", received);
        r.put("lost", v.lost());
        r.put("duplicates", v.duplicates());
        r.put("unexpected", v.unexpected());
        r.put("foreign", v.foreign());
        r.put("redelivered", redelivered);
    }

    /**
     * What every run starts from: the provider's connection factory and the destination its JNDI environment names,
     * the provider's name and version, and the body every message carries.
     */
    record Setup(ConnectionFactory factory, Destination destination, String provider, byte[] body) {

        /** The part of a run that works with the provider. */
        interface Measured {
            Result run(Setup setup) throws Exception;
        }

        /** Looks up {@value #FACTORY} and {@code destination} in {@code jndi}, and runs {@code run} with them. */
        static Result lookUp(Properties jndi, String destination, int bodyBytes, Measured run) throws Exception {
            Context context = new InitialContext(jndi);
            try {
                ConnectionFactory factory = (ConnectionFactory) context.lookup(FACTORY);
                Destination d = (Destination) context.lookup(destination);
                String provider;
                try (Connection c = factory.createConnection()) {
                    ConnectionMetaData md = c.getMetaData();
                    provider = md.getJMSProviderName() + " " + md.getProviderVersion();
                }
                byte[] body = new byte[bodyBytes];
                for (int i = 0; i < body.length; i++) {
                    body[i] = (byte) ('a' + i % 26);
                }
                return run.run(new Setup(factory, d, provider, body));
            } finally {
                context.close();
            }
        }

        /** A result's first fields: the case, the provider, the clients and the message size. */
        Map<String, Object> fields(Case workload) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("case", workload.label());
            r.put("provider", provider);
            r.put("producers", workload.producers);
            r.put("consumers", workload.consumers);
            r.put("messageBytes", body.length);
            return r;
        }
    }

    /** A run's outcome: {@code verified} in {@link #fields} is {@link #ok}. */
    record Result(boolean ok, Map<String, Object> fields) {

        /** Ends {@code fields} with {@code verified} and, if the run failed, its {@code error}. */
        static Result of(boolean ok, Map<String, Object> fields, RunState state) {
            fields.put("verified", ok);
            if (state.failed()) {
                fields.put("error", String.valueOf(state.failure()));
            }
            return new Result(ok, fields);
        }
    }
}
