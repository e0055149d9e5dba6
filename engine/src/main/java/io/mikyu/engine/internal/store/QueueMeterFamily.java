package io.mikyu.engine.internal.store;

import io.mikyu.engine.spi.QueueMeterSource.Family;
import io.mikyu.engine.spi.QueueMeterSource.Type;

/** Every per-queue meter the store exports: its name, type and description, written down once. */
enum QueueMeterFamily {
    IN("mikyu.queue.in", Type.COUNTER, "records appended", false),
    IN_BYTES("mikyu.queue.in.bytes", Type.COUNTER, "bytes appended (encoded)", true),
    OUT("mikyu.queue.out", Type.COUNTER, "records read", false),
    CACHE_HITS("mikyu.queue.cache.hits", Type.COUNTER, "reads served from the ring cache", true),
    CACHE_MISSES("mikyu.queue.cache.misses", Type.COUNTER, "reads that went to segment files", true),
    DEPTH("mikyu.queue.depth", Type.GAUGE,
            "records stored (log queues: the offset range) or unfinished tasks (task queues)", false),
    DISK_BYTES("mikyu.queue.disk.bytes", Type.GAUGE, "bytes of segment files", false),
    SEGMENTS("mikyu.queue.segments", Type.GAUGE, "segment files", true),
    APPEND_LATENCY("mikyu.queue.append.latency", Type.TIMER, "append call, encode to acknowledgement", true),
    READY("mikyu.queue.ready", Type.GAUGE, "tasks deliverable now", false),
    SCHEDULED("mikyu.queue.scheduled", Type.GAUGE, "tasks waiting for their time", false),
    INFLIGHT("mikyu.queue.inflight", Type.GAUGE, "tasks under a lease", false),
    ACKED("mikyu.queue.acked", Type.COUNTER, "tasks acked", false),
    DEADLETTERED("mikyu.queue.deadlettered", Type.COUNTER, "tasks moved to the dead-letter queue", false),
    TRANSIENT_BYTES("mikyu.queue.transient.bytes", Type.GAUGE, "estimated heap of transient (memory-only) tasks",
            true),
    TRANSIENT_TASKS("mikyu.queue.transient.tasks", Type.GAUGE, "transient (memory-only) tasks", true),
    COMPACTION_PASSES("mikyu.queue.compaction.passes", Type.COUNTER,
            "compaction passes (more than one per compaction when the key map cannot hold every key)", true),
    COMPACTION_KEYS("mikyu.queue.compaction.keys", Type.COUNTER,
            "distinct keys mapped by compaction, summed over its passes", true),
    GROUP_LAG("mikyu.group.lag", Type.GAUGE, "records between the group's committed offset and the end", false);

    private final Family family;

    /** @param detail whether a scrape writes it only when asked for the detail ({@link Family#detail()}) */
    QueueMeterFamily(String name, Type type, String description, boolean detail) {
        this.family = new Family(name, type, description, detail);
    }

    Family family() {
        return family;
    }
}
