package io.mikyu.engine.internal.write;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Counters of the write path. Each counter has a single writing thread (the writer; the background flusher for
 * its own fsyncs), so plain volatile longs suffice; Micrometer reads them through function counters instead of
 * being called per append.
 */
public final class WriterMetrics implements AutoCloseable {

    private volatile long commits;
    private volatile long commitRequests;
    private volatile long fsyncs;
    private volatile long backgroundFsyncs;
    private volatile long bytes;
    private volatile long syncBehindFsync;
    private volatile long aheadFsyncs;
    /** Written by the writer and the flusher: failures are rare enough for an atomic. */
    private final java.util.concurrent.atomic.AtomicLong fsyncFailures = new java.util.concurrent.atomic.AtomicLong();
    private final Timer fsyncLatency;
    private final Timer commitLatency;
    private final DistributionSummary batchSize;
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();

    public WriterMetrics(MeterRegistry registry) {
        this.registry = registry;
        meters.add(FunctionCounter.builder("mikyu.engine.commits", this, m -> m.commits)
                .description("group commits (one write per touched file, one fsync if any request was sync)")
                .register(registry));
        meters.add(FunctionCounter.builder("mikyu.engine.commit.requests", this, m -> m.commitRequests)
                .description("append calls covered by group commits").register(registry));
        meters.add(FunctionCounter.builder("mikyu.engine.fsyncs", this, m -> m.fsyncs()).register(registry));
        meters.add(FunctionCounter.builder("mikyu.engine.fsync.failures", this, m -> m.fsyncFailures.get())
                .description("failed fsyncs; each stopped its queue until the store is reopened").register(registry));
        meters.add(FunctionCounter.builder("mikyu.engine.sync.behind.fsync", this, m -> m.syncBehindFsync)
                .description("sync append calls that arrived while the writer was fsyncing: each waited for that"
                        + " fsync to end before its own cycle began")
                .register(registry));
        meters.add(FunctionCounter.builder("mikyu.engine.written", this, m -> m.bytes).baseUnit("bytes")
                .register(registry));
        fsyncLatency = Timer.builder("mikyu.engine.fsync.latency")
                .description("time of the fsyncs of one group commit").register(registry);
        commitLatency = Timer.builder("mikyu.engine.commit.latency")
                .description("time of one group commit, write to completion").register(registry);
        batchSize = DistributionSummary.builder("mikyu.engine.commit.batch")
                .description("append calls per group commit").register(registry);
        meters.add(fsyncLatency);
        meters.add(commitLatency);
        meters.add(batchSize);
    }

    /** Registers a meter that lives and dies with the store. */
    public void own(Meter meter) {
        meters.add(meter);
    }

    /** Removes every meter of the store, so a reopened store with the same registry registers fresh ones. */
    @Override
    public void close() {
        for (Meter m : meters) {
            registry.remove(m);
        }
        meters.clear();
    }

    public void cycle(int requests, int completed, long cycleBytes, long nanos) {
        commits++;
        commitRequests += completed;
        bytes += cycleBytes;
        batchSize.record(requests);
        commitLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Requests written in a cycle's second pass, after the ones they follow: they belong to that cycle. */
    public void followers(int completed, long followerBytes) {
        commitRequests += completed;
        bytes += followerBytes;
    }

    /** An fsync by the writer thread for a synchronous cycle. */
    public void fsync() {
        fsyncs++;
    }

    /** A sync request entered a cycle after waiting for the fsync in progress when it was submitted. */
    public void countSyncBehindFsync() {
        syncBehindFsync++;
    }

    /** A failed fsync, by the writer or the flusher. */
    public void fsyncFailure() {
        fsyncFailures.incrementAndGet();
    }

    /** An fsync of the transaction log for PREPARE records written ahead, by their own thread. */
    public void aheadFsync() {
        aheadFsyncs++;
    }

    /** An fsync by the background flusher thread. */
    public void backgroundFsync() {
        backgroundFsyncs++;
    }

    public void fsyncNanos(long nanos) {
        fsyncLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    public long commits() {
        return commits;
    }

    public long commitRequests() {
        return commitRequests;
    }

    public long syncBehindFsync() {
        return syncBehindFsync;
    }

    public long fsyncs() {
        return fsyncs + backgroundFsyncs + aheadFsyncs;
    }
}
