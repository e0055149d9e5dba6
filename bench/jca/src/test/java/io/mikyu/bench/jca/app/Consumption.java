package io.mikyu.bench.jca.app;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the bean consumed since its deployment: messages, bytes, redeliveries, and the server's clock at the first
 * and at the latest message (the consumption rate is taken between them, so the deployment's own time is not in
 * it).
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Consumption {

    private final AtomicLong messages = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong redelivered = new AtomicLong();
    private final AtomicLong firstNanos = new AtomicLong();
    private final AtomicLong lastNanos = new AtomicLong();

    public void record(int size, boolean redelivery) {
        long now = System.nanoTime();
        firstNanos.compareAndSet(0, now);
        lastNanos.accumulateAndGet(now, Math::max);
        bytes.addAndGet(size);
        if (redelivery) {
            redelivered.incrementAndGet();
        }
        messages.incrementAndGet();
    }

    /** {@code messages bytes redelivered nanos-from-first-to-latest}. */
    public String summary() {
        return messages.get() + " " + bytes.get() + " " + redelivered.get() + " " + (lastNanos.get() - firstNanos.get());
    }
}
