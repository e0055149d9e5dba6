package io.mikyu.engine.internal.store;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.spi.QueueMeterSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The meters of one queue, read from the queue's own counters (so nothing is recorded twice on the hot path). They
 * are always readable through {@link QueueMeterTable} (a scrape walks them); with
 * {@code EngineConfig.perQueueMeters()} they are also registered in the meter registry, and removed from it when
 * the queue is closed or deleted.
 */
final class QueueMeters implements AutoCloseable {

    private static final QueueMeterFamily[] FAMILIES = QueueMeterFamily.values();

    private final String queue;
    private final String kind;
    private final QueueMeterTable table;
    /** {@code null} unless the meters are registered. */
    private final MeterRegistry registry;
    private final Tags tags;
    private final List<Meter> registered = new ArrayList<>();
    /** What each family reads, by ordinal; {@code null} where this queue has none. */
    private final Reading<?>[] readings = new Reading<?>[FAMILIES.length];
    private final List<GroupLag> lags = new CopyOnWriteArrayList<>();
    /** A task queue's counts, read once a scrape for its four gauges; {@code null} for a log queue. */
    private volatile Supplier<TaskCounts> counts;
    private final Timer appendTimer;
    private final LongAdder appendCalls;
    private final LongAdder appendNanos;

    QueueMeters(QueueMeterTable table, SegmentedLog log, String kind) {
        this.queue = log.name();
        this.kind = kind;
        this.table = table;
        this.registry = table.registry();
        this.tags = Tags.of("queue", queue, "kind", kind);
        read(QueueMeterFamily.IN, log, SegmentedLog::appendedRecords);
        read(QueueMeterFamily.IN_BYTES, log, SegmentedLog::appendedBytes);
        read(QueueMeterFamily.OUT, log, SegmentedLog::readRecords);
        read(QueueMeterFamily.CACHE_HITS, log, SegmentedLog::cacheHits);
        read(QueueMeterFamily.CACHE_MISSES, log, SegmentedLog::cacheMisses);
        if ("log".equals(kind)) {
            read(QueueMeterFamily.DEPTH, log, l -> l.endOffset() - l.startOffset());
        }
        read(QueueMeterFamily.DISK_BYTES, log, SegmentedLog::bytesOnDisk);
        read(QueueMeterFamily.SEGMENTS, log, SegmentedLog::segmentCount);
        if (registry != null) {
            appendTimer = Timer.builder(QueueMeterFamily.APPEND_LATENCY.family().name()).tags(tags)
                    .description(QueueMeterFamily.APPEND_LATENCY.family().description()).register(registry);
            registered.add(appendTimer);
            appendCalls = null;
            appendNanos = null;
        } else {
            appendTimer = null;
            appendCalls = new LongAdder();
            appendNanos = new LongAdder();
        }
        table.add(this);
    }

    void appendLatency(long nanos) {
        if (appendTimer != null) {
            appendTimer.record(nanos, TimeUnit.NANOSECONDS);
        } else {
            appendCalls.increment();
            appendNanos.add(nanos);
        }
    }

    /** This queue's value of {@code family}, read from {@code f} (e.g. acked tasks, ready tasks). */
    <T> void read(QueueMeterFamily family, T source, ToDoubleFunction<T> f) {
        readings[family.ordinal()] = new Reading<>(source, f);
        if (registry == null) {
            return;
        }
        QueueMeterSource.Family fam = family.family();
        if (fam.type() == QueueMeterSource.Type.COUNTER) {
            registered.add(FunctionCounter.builder(fam.name(), source, f).tags(tags).description(fam.description())
                    .register(registry));
        } else {
            registered.add(Gauge.builder(fam.name(), source, f).tags(tags).description(fam.description())
                    .strongReference(false).register(registry));
        }
    }

    /**
     * A task queue's depth, ready, scheduled and in-flight gauges, all from one {@code counts} (which takes the
     * queue's lock): a scrape reads it once for the four.
     */
    void taskCounts(Supplier<TaskCounts> taskCounts) {
        read(QueueMeterFamily.DEPTH, taskCounts, c -> c.get().depth());
        read(QueueMeterFamily.READY, taskCounts, c -> c.get().ready());
        read(QueueMeterFamily.SCHEDULED, taskCounts, c -> c.get().scheduled());
        read(QueueMeterFamily.INFLIGHT, taskCounts, c -> c.get().inFlight());
        this.counts = taskCounts;
    }

    /**
     * Reads this queue's value of each family of {@code families} into {@code values} from {@code at} on (in the
     * order of {@code families}), {@link Double#NaN} where it has none; the timer and the group lags are not
     * read here (see {@link #visit}).
     */
    void snapshot(QueueMeterFamily[] families, double[] values, int at) {
        Supplier<TaskCounts> c = counts;
        TaskCounts taken = c != null ? c.get() : null;
        for (int i = 0; i < families.length; i++) {
            QueueMeterFamily f = families[i];
            double v = Double.NaN;
            if (taken != null && f == QueueMeterFamily.DEPTH) {
                v = taken.depth();
            } else if (taken != null && f == QueueMeterFamily.READY) {
                v = taken.ready();
            } else if (taken != null && f == QueueMeterFamily.SCHEDULED) {
                v = taken.scheduled();
            } else if (taken != null && f == QueueMeterFamily.INFLIGHT) {
                v = taken.inFlight();
            } else {
                Reading<?> r = readings[f.ordinal()];
                if (r != null) {
                    v = r.value();
                }
            }
            values[at + i] = v;
        }
    }

    /** Passes what {@link #snapshot} read for {@code family} ({@code value}; NaN: none) to {@code visitor}. */
    void visit(QueueMeterFamily family, double value, QueueMeterSource.Visitor visitor) {
        if (family == QueueMeterFamily.APPEND_LATENCY || family == QueueMeterFamily.GROUP_LAG) {
            visit(family, visitor);
        } else if (!Double.isNaN(value)) {
            visitor.sample(queue, kind, null, value);
        }
    }

    /** A lag gauge for a consumer group of this queue. */
    void groupLag(String group, ToDoubleFunction<String> lag) {
        lags.add(new GroupLag(group, lag));
        if (registry != null) {
            QueueMeterSource.Family fam = QueueMeterFamily.GROUP_LAG.family();
            registered.add(Gauge.builder(fam.name(), group, lag).tags(tags.and("group", group))
                    .description(fam.description()).register(registry));
        }
    }

    /** Passes this queue's value of {@code family}, if it has one, to {@code visitor}. */
    void visit(QueueMeterFamily family, QueueMeterSource.Visitor visitor) {
        switch (family) {
            case APPEND_LATENCY -> {
                if (appendTimer != null) {
                    visitor.timer(queue, kind, appendTimer.count(), appendTimer.totalTime(TimeUnit.SECONDS));
                } else {
                    visitor.timer(queue, kind, appendCalls.sum(), appendNanos.sum() / 1e9);
                }
            }
            case GROUP_LAG -> {
                for (GroupLag g : lags) {
                    visitor.sample(queue, kind, g.group, g.lag.applyAsDouble(g.group));
                }
            }
            default -> {
                Reading<?> r = readings[family.ordinal()];
                if (r != null) {
                    visitor.sample(queue, kind, null, r.value());
                }
            }
        }
    }

    @Override
    public void close() {
        table.remove(this);
        if (registry != null) {
            for (Meter m : registered) {
                registry.remove(m);
            }
        }
        registered.clear();
    }

    private record Reading<T>(T source, ToDoubleFunction<T> f) {
        double value() {
            return f.applyAsDouble(source);
        }
    }

    private record GroupLag(String group, ToDoubleFunction<String> lag) {
    }
}
