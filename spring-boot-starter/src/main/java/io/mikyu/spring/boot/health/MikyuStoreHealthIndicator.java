package io.mikyu.spring.boot.health;

import io.mikyu.engine.EngineStats;
import io.mikyu.engine.Mikyu;
import io.mikyu.spring.boot.embedded.MikyuEmbeddedStore;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/** Health of the embedded store: UP while it is open, with its directory, id, queues and free disk space. */
public class MikyuStoreHealthIndicator extends AbstractHealthIndicator {

    private final MikyuEmbeddedStore store;

    public MikyuStoreHealthIndicator(MikyuEmbeddedStore store) {
        super("mikyu store health check failed");
        this.store = store;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        Mikyu engine = store.engine();
        builder.withDetail("mode", "embedded").withDetail("directory", engine.location());
        if (!store.isOpen()) {
            builder.down().withDetail("error", "the store is closed");
            return;
        }
        EngineStats stats = engine.stats();
        builder.up().withDetail("storeId", engine.storeId())
                .withDetail("logQueues", stats.logQueues())
                .withDetail("taskQueues", stats.taskQueues())
                .withDetail("bytesOnDisk", stats.bytesOnDisk())
                .withDetail("freeDiskBytes", stats.freeDiskBytes());
    }
}
