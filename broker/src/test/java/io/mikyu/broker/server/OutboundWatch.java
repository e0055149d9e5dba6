package io.mikyu.broker.server;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples what a broker holds for its clients' sockets ({@link BrokerServer#pendingOutboundBytes()}) every
 * millisecond while open, keeping the peak: what slow readers cost the broker's memory.
 */
final class OutboundWatch implements AutoCloseable {

    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "outbound-watch");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong peak = new AtomicLong();

    OutboundWatch(BrokerServer server) {
        sampler.scheduleWithFixedDelay(() -> peak.accumulateAndGet(server.pendingOutboundBytes(), Math::max), 0, 1,
                TimeUnit.MILLISECONDS);
    }

    long peak() {
        return peak.get();
    }

    void reset() {
        peak.set(0);
    }

    @Override
    public void close() throws InterruptedException {
        sampler.shutdownNow();
        sampler.awaitTermination(5, TimeUnit.SECONDS);
    }
}
