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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The store's large bodies: uploads, reads, and the housekeeping sweep that deletes the bodies no unfinished task
 * names any more. The sweep holds back while it cannot know every reference: a task queue whose settings could not
 * be read is not open (its tasks may name bodies), and an in-doubt transaction's enqueues are not in their queue
 * until it is decided.
 */
final class StoreBodies {

    private static final Logger LOG = LoggerFactory.getLogger(StoreBodies.class);

    private final BodyStore bodies;
    private final TaskQueues tasks;
    private final BooleanSupplier anyInDoubt;

    StoreBodies(Path dataDir, TaskQueues tasks, BooleanSupplier anyInDoubt) throws IOException {
        this.bodies = BodyStore.open(dataDir);
        this.tasks = tasks;
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
        if (tasks.anyQuarantined() || anyInDoubt.getAsBoolean()) {
            return;
        }
        try {
            List<String> deleted = bodies.sweep(() -> {
                Set<String> live = new HashSet<>();
                for (TaskQueueHandle t : tasks.all()) {
                    t.collectBodies(live);
                }
                return live;
            });
            if (!deleted.isEmpty()) {
                LOG.debug("deleted {} large bodies no task names", deleted.size());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
