package io.mikyu.bench.jms;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

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
        return Run.Setup.lookUp(jndi, Run.QUEUE, options.size, this::execute);
    }

    private Run.Result execute(Run.Setup setup) throws Exception {
        ConnectionFactory factory = setup.factory();
        Destination queue = setup.destination();
        byte[] body = setup.body();
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
        ProcessSampler produce = ProcessSampler.begin();
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
        ProcessSampler drain = ProcessSampler.begin();
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

        Map<String, Object> r = setup.fields(workload);
        r.put("messages", total);
        r.put("maxHeapMB", Runtime.getRuntime().maxMemory() >> 20);
        r.put("produceS", Run.round(produce.seconds()));
        r.put("producePerS", Run.round(sent / produce.seconds()));
        r.put("produceHeapPeakMB", produce.heapPeakMb);
        r.put("produceLiveHeapPeakMB", produce.liveHeapPeakMb);
        r.put("produceGcMs", produce.gcMillis);
        r.put("produceGcCount", produce.gcCount);
        r.put("drainS", Run.round(drain.seconds()));
        r.put("drainPerS", Run.round(received / drain.seconds()));
        r.put("drainHeapPeakMB", drain.heapPeakMb);
        r.put("drainLiveHeapPeakMB", drain.liveHeapPeakMb);
        r.put("drainGcMs", drain.gcMillis);
        r.put("drainGcCount", drain.gcCount);
        // the drain rate, under the name jms-ratio.sh reads
        r.put("msgsPerS", Run.round(received / drain.seconds()));
        r.put("p50us", 0);
        r.put("p99us", 0);
        Run.putCounts(r, sent, sent, received, v, redelivered);
        return Run.Result.of(ok, r, state);
    }
}
