package io.mikyu.engine.internal.store;

import io.mikyu.engine.BodyUpload;
import io.mikyu.engine.LargeBody;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.internal.body.BodyStore;
import io.mikyu.engine.internal.task.TaskQueueHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The store's large bodies: uploads, reads, and the housekeeping sweep that deletes the bodies no unfinished task
 * and no retained log record names any more. The sweep holds back while it cannot know every reference: a queue
 * whose settings could not be read is not open (its records may name bodies), and an in-doubt transaction's writes
 * are not in their queues until it is decided.
 */
final class StoreBodies {

    private static final Logger LOG = LoggerFactory.getLogger(StoreBodies.class);

    private final BodyStore bodies;
    private final TaskQueues tasks;
    private final LogQueues logs;
    private final BooleanSupplier anyInDoubt;

    StoreBodies(Path dataDir, TaskQueues tasks, LogQueues logs, BooleanSupplier anyInDoubt) throws IOException {
        this.bodies = BodyStore.open(dataDir);
        this.tasks = tasks;
        this.logs = logs;
        this.anyInDoubt = anyInDoubt;
        if (bodies.recoveredPending() > 0) {
            LOG.info("recovery: deleted {} large bodies whose writing a crash cut short", bodies.recoveredPending());
        }
    }

    BodyUpload upload() {
        try {
            return bodies.create();
        } catch (IOException e) {
            throw new MikyuException("could not start a large body: " + e.getMessage(), e);
        }
    }

    InputStream open(LargeBody body) {
        try {
            return bodies.open(body);
        } catch (IOException e) {
            throw new MikyuException("could not read large body " + body.id() + ": " + e.getMessage(), e);
        }
    }

    /** One housekeeping pass: deletes what two passes in a row found unreferenced. */
    void sweep() {
        if (tasks.anyQuarantined() || logs.anyQuarantined() || anyInDoubt.getAsBoolean()) {
            return;
        }
        try {
            // The logs' ends are read before the directory is listed: a record names a body only once it is
            // published, so with no body listed no record below those ends names one, and no log need be read.
            Map<LogQueueHandle, Long> ends = new HashMap<>();
            for (LogQueueHandle l : logs.all()) {
                ends.put(l, l.endOffset());
            }
            if (bodies.publishedIds().isEmpty()) {
                ends.forEach(LogQueueHandle::noBodiesBelow);
            }
            List<String> deleted = bodies.sweep(() -> {
                Set<String> live = new HashSet<>();
                for (TaskQueueHandle t : tasks.all()) {
                    t.collectBodies(live);
                }
                for (LogQueueHandle l : logs.all()) {
                    l.collectBodies(live);
                }
                return live;
            });
            if (!deleted.isEmpty()) {
                LOG.debug("deleted {} large bodies no record names", deleted.size());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
