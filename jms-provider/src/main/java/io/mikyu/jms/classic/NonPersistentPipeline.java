package io.mikyu.jms.classic;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.spi.TransientWrites;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.message.EncodedMessage;
import jakarta.jms.JMSException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * NON_PERSISTENT sends of one session, written behind the application's back: {@code send()} queues the message
 * and returns, and the session's pipeline thread writes what accumulated as engine batches (one write for many
 * messages instead of a round trip to the writer each): topic messages always, queue messages over a broker
 * (as transient tasks, memory only, where a send would otherwise wait for a network round trip). NON_PERSISTENT promises at most once, so nothing is lost
 * that was promised; the ordering JMS does promise is kept: the pipeline is drained before any other send of the
 * session, before a receive on the same connection, and when the session closes. A failed write is reported to
 * the connection's ExceptionListener, the only place JMS has for it; a write the broker refused for lack of memory
 * also makes the session's next send throw {@code ResourceAllocationException}, so the producer hears of it.
 */
final class NonPersistentPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(NonPersistentPipeline.class);
    /** Messages queued before send() waits: bounds the memory a fast producer can take. */
    private static final int CAPACITY = 2048;
    /**
     * Payload bytes queued before send() waits: without it 2,048 messages of up to 256 KiB could take 512 MiB, and
     * a broker that holds back transient sends for memory would move the pile into the client.
     */
    private static final long CAPACITY_BYTES = 8L << 20;
    private static final int MAX_BATCH = 256;
    private static final long MAX_BATCH_BYTES = 4L << 20;

    private record Pending(MikyuDestination destination, EncodedMessage message) {
    }

    private final MikyuSession session;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private boolean writing;
    private boolean stopped;
    private long queuedBytes;
    /** Messages a broker refused for lack of memory since the last send heard of it, and why. */
    private int refused;
    private String refusal;
    /** The write in progress waits for the store to free memory: a receive does not wait for it (it may free it). */
    private boolean waitingForMemory;
    private Thread thread;

    NonPersistentPipeline(MikyuSession session) {
        this.session = session;
    }

    synchronized void submit(MikyuDestination destination, EncodedMessage message) throws JMSException {
        while ((queue.size() >= CAPACITY || queuedBytes >= CAPACITY_BYTES) && !stopped) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JMSException("interrupted while the session's send queue was full");
            }
        }
        if (stopped) {
            throw new jakarta.jms.IllegalStateException("the session is closed");
        }
        if (refused > 0) {
            // The producer hears of it from its next send, the exception the specification has for it.
            String reason = refusal;
            int count = refused;
            refused = 0;
            throw new jakarta.jms.ResourceAllocationException("this message was not sent, nor were " + count
                    + " NON_PERSISTENT message(s) this session sent before it: " + reason);
        }
        queue.add(new Pending(destination, message));
        queuedBytes += message.payload().length;
        session.connection.nonPersistentQueued();
        if (thread == null) {
            thread = new Thread(this::run, "mikyu-jms-send-" + session.connection.id);
            thread.setDaemon(true);
            thread.start();
        }
        if (queue.size() == 1) {
            notifyAll();
        }
    }

    /** Waits until everything queued so far is written. */
    synchronized void flush() {
        while ((!queue.isEmpty() || writing) && thread != null && thread.isAlive()) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * As {@link #flush()}, but not for a write that waits for the store's consumers to free memory: a receive must
     * not wait for it, since its taking may be what frees the memory.
     */
    synchronized void flushUnlessWaitingForMemory() {
        while ((!queue.isEmpty() || writing) && !waitingForMemory && thread != null && thread.isAlive()) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Writes what is queued, then stops the thread. */
    void close() {
        flush();
        synchronized (this) {
            stopped = true;
            notifyAll();
        }
    }

    private void run() {
        List<Pending> batch = new ArrayList<>(MAX_BATCH);
        while (true) {
            synchronized (this) {
                while (queue.isEmpty() && !stopped) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        // only close stops the pipeline
                    }
                }
                if (queue.isEmpty()) {
                    return;
                }
                long bytes = 0;
                while (!queue.isEmpty() && batch.size() < MAX_BATCH && bytes < MAX_BATCH_BYTES) {
                    Pending p = queue.poll();
                    bytes += p.message().payload().length;
                    queuedBytes -= p.message().payload().length;
                    batch.add(p);
                }
                writing = true;
                notifyAll(); // room for senders
            }
            write(batch);
            int written = batch.size();
            batch.clear();
            synchronized (this) {
                writing = false;
                notifyAll();
            }
            session.connection.nonPersistentWritten(written);
        }
    }

    /** A transient enqueue; if it has to wait for memory, receives on the connection stop waiting for it. */
    private void enqueueTransient(TaskQueue queue, List<Task> tasks) {
        if (queue instanceof TransientWrites t && t.enqueueTransientUnlessFull(tasks) != TransientWrites.MEMORY_FULL) {
            return;
        }
        synchronized (this) {
            waitingForMemory = true;
            notifyAll();
        }
        try {
            queue.enqueueTransient(tasks);
        } finally {
            synchronized (this) {
                waitingForMemory = false;
            }
        }
    }

    /** Writes runs of consecutive messages to the same destination as one batch each. */
    private void write(List<Pending> batch) {
        int i = 0;
        while (i < batch.size()) {
            MikyuDestination d = batch.get(i).destination();
            int j = i;
            while (j < batch.size() && batch.get(j).destination().equals(d)) {
                j++;
            }
            try {
                if (d.isQueue()) {
                    List<Task> tasks = new ArrayList<>(j - i);
                    for (int k = i; k < j; k++) {
                        tasks.add(batch.get(k).message().toTask());
                    }
                    // Memory only on the broker, as a NON_PERSISTENT queue message is in-VM.
                    enqueueTransient(session.connection.taskQueue(d.name()), tasks);
                } else {
                    List<Entry> entries = new ArrayList<>(j - i);
                    for (int k = i; k < j; k++) {
                        entries.add(batch.get(k).message().toEntry());
                    }
                    session.connection.logQueue(d.name()).appendBatch(entries, Durability.ASYNC);
                }
            } catch (RuntimeException e) {
                LOG.warn("{} NON_PERSISTENT messages to {} could not be written", j - i, d, e);
                if (e instanceof io.mikyu.engine.MemoryLimitException) {
                    synchronized (this) {
                        refused += j - i;
                        refusal = e.getMessage();
                    }
                }
                session.connection.report(JmsErrors.of(e));
            }
            i = j;
        }
    }
}
