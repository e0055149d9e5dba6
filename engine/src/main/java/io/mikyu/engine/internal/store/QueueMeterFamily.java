package io.mikyu.engine.internal.store;

import io.mikyu.engine.spi.QueueMeterSource.Family;
import io.mikyu.engine.spi.QueueMeterSource.Type;

/** Every per-queue meter the store exports: its name, type and description, written down once. */
enum QueueMeterFamily {
    IN("mikyu.queue.in", Type.COUNTER, "records appended"),
    IN_BYTES("mikyu.queue.in.bytes", Type.COUNTER, "bytes appended (encoded)"),
    OUT("mikyu.queue.out", Type.COUNTER, "records read"),
    CACHE_HITS("mikyu.queue.cache.hits", Type.COUNTER, "reads served from the ring cache"),
    CACHE_MISSES("mikyu.queue.cache.misses", Type.COUNTER, "reads that went to segment files"),
    DEPTH("mikyu.queue.depth", Type.GAUGE,
            "records stored (log queues: the offset range) or unfinished tasks (task queues)"),
    DISK_BYTES("mikyu.queue.disk.bytes", Type.GAUGE, "bytes of segment files"),
    SEGMENTS("mikyu.queue.segments", Type.GAUGE, "segment files"),
    APPEND_LATENCY("mikyu.queue.append.latency", Type.TIMER, "append call, encode to acknowledgement"),
    READY("mikyu.queue.ready", Type.GAUGE, "tasks deliverable now"),
    SCHEDULED("mikyu.queue.scheduled", Type.GAUGE, "tasks waiting for their time"),
    INFLIGHT("mikyu.queue.inflight", Type.GAUGE, "tasks under a lease"),
    ACKED("mikyu.queue.acked", Type.COUNTER, "tasks acked"),
    DEADLETTERED("mikyu.queue.deadlettered", Type.COUNTER, "tasks moved to the dead-letter queue"),
    TRANSIENT_BYTES("mikyu.queue.transient.bytes", Type.GAUGE, "estimated heap of transient (memory-only) tasks"),
    TRANSIENT_TASKS("mikyu.queue.transient.tasks", Type.GAUGE, "transient (memory-only) tasks"),
    COMPACTION_PASSES("mikyu.queue.compaction.passes", Type.COUNTER,
            "compaction passes (more than one per compaction when the key map cannot hold every key)"),
    COMPACTION_KEYS("mikyu.queue.compaction.keys", Type.COUNTER,
            "distinct keys mapped by compaction, summed over its passes"),
    GROUP_LAG("mikyu.group.lag", Type.GAUGE, "records between the group's committed offset and the end");

    private final Family family;

    QueueMeterFamily(String name, Type type, String description) {
        this.family = new Family(name, type, description);
    }

    Family family() {
        return family;
    }
}
