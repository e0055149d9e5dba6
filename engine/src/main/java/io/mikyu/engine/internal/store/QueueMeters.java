package io.mikyu.engine.internal.store;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.mikyu.engine.internal.log.SegmentedLog;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The Micrometer meters of one queue, read from the queue's own counters (so nothing is recorded twice on the
 * hot path) and removed when the queue is deleted.
 */
final class QueueMeters implements AutoCloseable {

    private final MeterRegistry registry;
    private final Tags tags;
    private final List<Meter> meters = new ArrayList<>();
    private final Timer appendLatency;

    QueueMeters(MeterRegistry registry, SegmentedLog log, String kind) {
        this.registry = registry;
        this.tags = Tags.of("queue", log.name(), "kind", kind);
        counter("mikyu.queue.in", log, SegmentedLog::appendedRecords, "records appended");
        counter("mikyu.queue.in.bytes", log, SegmentedLog::appendedBytes, "bytes appended (encoded)");
        counter("mikyu.queue.out", log, SegmentedLog::readRecords, "records read");
        counter("mikyu.queue.cache.hits", log, SegmentedLog::cacheHits, "reads served from the ring cache");
        counter("mikyu.queue.cache.misses", log, SegmentedLog::cacheMisses, "reads that went to segment files");
        if ("log".equals(kind)) {
            gauge("mikyu.queue.depth", log, l -> l.endOffset() - l.startOffset(), "records stored (offset range)");
        }
        gauge("mikyu.queue.disk.bytes", log, SegmentedLog::bytesOnDisk, "bytes of segment files");
        gauge("mikyu.queue.segments", log, SegmentedLog::segmentCount, "segment files");
        appendLatency = Timer.builder("mikyu.queue.append.latency").tags(tags)
                .description("append call, encode to acknowledgement").register(registry);
        meters.add(appendLatency);
    }

    void appendLatency(long nanos) {
        appendLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** A counter of this queue read from {@code f}, e.g. acked or dead-lettered tasks. */
    <T> void counter(String name, T source, ToDoubleFunction<T> f, String description) {
        meters.add(FunctionCounter.builder(name, source, f).tags(tags).description(description).register(registry));
    }

    /** A gauge of this queue read from {@code f}, e.g. ready or in-flight tasks. */
    <T> void gauge(String name, T source, ToDoubleFunction<T> f, String description) {
        meters.add(Gauge.builder(name, source, f).tags(tags).description(description).strongReference(false)
                .register(registry));
    }

    /** A lag gauge for a consumer group of this queue. */
    void groupLag(String group, ToDoubleFunction<String> lag) {
        meters.add(Gauge.builder("mikyu.group.lag", group, lag).tags(tags.and("group", group))
                .description("records between the group's committed offset and the end").register(registry));
    }

    @Override
    public void close() {
        for (Meter m : meters) {
            registry.remove(m);
        }
        meters.clear();
    }
}
