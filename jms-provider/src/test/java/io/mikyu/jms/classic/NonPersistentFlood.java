package io.mikyu.jms.classic;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.support.ChildProcess;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.metrics.JmsMetrics;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The child of {@link NonPersistentHeapTest}: sends {@code args[1]} bytes of NON_PERSISTENT messages to a queue
 * nobody consumes, in a JVM whose heap is far smaller, through {@code vm://} URL {@code args[0]}. Under
 * {@code block} it waits until the producer is blocked, reports the heap, then drains with a consumer while the
 * producer goes on; under {@code spill} it drains after the producer is done; under {@code fail} it reports the
 * refusal. Lines: {@code refused <sent> <message>}, {@code blocked <sent>}, {@code heap <used> transient <bytes>},
 * {@code done <sent> <received>}.
 */
public final class NonPersistentFlood {

    static final int BODY = 32 * 1024;

    public static void main(String[] args) throws Exception {
        String url = args[0];
        long messages = Long.parseLong(args[1]) / BODY;
        MeterRegistry meters = new SimpleMeterRegistry();
        JmsMetrics.addRegistry(meters);
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("flood"));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            long[] sent = {0};
            CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> {
                try {
                    while (sent[0] < messages) {
                        BytesMessage m = s.createBytesMessage();
                        m.writeBytes(new byte[BODY]);
                        p.send(m);
                        sent[0]++;
                    }
                } catch (ResourceAllocationException e) {
                    ChildProcess.println("refused " + sent[0] + " " + e.getMessage());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            if (url.contains("transientMemoryPolicy=block")) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (meters.get("mikyu.engine.transient.blocked").functionCounter().count() == 0) {
                    if (System.nanoTime() > deadline || producing.isDone()) {
                        throw new AssertionError("the producer never blocked; sent " + sent[0]);
                    }
                    Thread.onSpinWait();
                    Thread.sleep(1); // polling a counter, not waiting for time to pass
                }
                ChildProcess.println("blocked " + sent[0]);
                reportHeap(meters);
            } else {
                producing.get(120, TimeUnit.SECONDS);
                reportHeap(meters);
            }
            Session consuming = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = consuming.createConsumer(consuming.createQueue("flood"));
            c.start();
            long received = 0;
            while ((!producing.isDone() || received < sent[0]) && consumer.receive(30_000) != null) {
                received++;
            }
            producing.get(120, TimeUnit.SECONDS);
            ChildProcess.println("done " + sent[0] + " " + received);
        }
    }

    private static void reportHeap(MeterRegistry meters) {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        ChildProcess.println("heap " + (rt.totalMemory() - rt.freeMemory()) + " transient "
                + (long) meters.get("mikyu.engine.transient.bytes").gauge().value());
    }
}
