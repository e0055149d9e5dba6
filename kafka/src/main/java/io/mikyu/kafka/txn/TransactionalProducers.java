package io.mikyu.kafka.txn;

import io.mikyu.engine.MikyuException;
import io.mikyu.engine.NoAnswerException;
import io.mikyu.kafka.admin.Cluster;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The transactional producers of one store handle, a pool: a Kafka producer runs one transaction at a time, so a
 * commit borrows an idle one (or makes one) and gives it back after.
 *
 * <p>Each producer's {@code transactional.id} is {@code <prefix>.txn.<clientName>.<handle>.<n>}, {@code <handle>} a
 * random id of this store handle: two handles, in one process or in two, never share an id, so they never fence
 * each other. The other side of that choice: a handle that dies in the middle of a commit is not fenced by a
 * successor (no successor has its id); the transaction coordinator aborts its open transaction when the
 * producer's {@code transaction.timeout.ms} has passed (Kafka's default one minute; {@code kafka.transaction.timeout.ms}
 * in the URL), and until then {@code read_committed} readers of the partitions it wrote to wait at its first record.
 */
public final class TransactionalProducers implements AutoCloseable {

    private final Cluster cluster;
    private final String idBase;
    private final ConcurrentLinkedDeque<Producer<byte[], byte[]>> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger made = new AtomicInteger();
    private volatile boolean closed;

    public TransactionalProducers(Cluster cluster, String topicPrefix) {
        this.cluster = cluster;
        this.idBase = topicPrefix + ".txn." + cluster.clientName() + "." + UUID.randomUUID() + ".";
    }

    /**
     * Runs {@code work} (sends, offsets) in one Kafka transaction and commits it. A failure aborts it (nothing is
     * visible to {@code read_committed} readers) and is thrown as a {@link MikyuException}; a commit the cluster did
     * not confirm in time is a {@link NoAnswerException} (it may have happened).
     */
    public void commit(Consumer<Producer<byte[], byte[]>> work) {
        Producer<byte[], byte[]> producer = borrow();
        boolean reusable = true;
        try {
            producer.beginTransaction();
            work.accept(producer);
            producer.commitTransaction();
        } catch (TimeoutException e) {
            // Whether the coordinator wrote the commit is unknown; this producer's state is too.
            reusable = false;
            throw new NoAnswerException("no answer from the Kafka cluster in time (max.block.ms) to commit a"
                    + " transaction: it may or may not have been committed (" + e.getMessage() + ")");
        } catch (ProducerFencedException | InvalidProducerEpochException | OutOfOrderSequenceException
                 | AuthorizationException | UnsupportedVersionException e) {
            // Fatal for this producer (Kafka's list): it can only be closed; the transaction is not committed.
            reusable = false;
            throw new MikyuException("the transaction was not committed: " + e.getMessage(), e);
        } catch (KafkaException e) {
            reusable = abort(producer);
            throw new MikyuException("the transaction was not committed (aborted): " + e.getMessage(), e);
        } catch (RuntimeException e) {
            reusable = abort(producer);
            throw e;
        } finally {
            giveBack(producer, reusable);
        }
    }

    private static boolean abort(Producer<byte[], byte[]> producer) {
        try {
            producer.abortTransaction();
            return true;
        } catch (KafkaException e) {
            return false;
        }
    }

    private Producer<byte[], byte[]> borrow() {
        if (closed) {
            throw new IllegalStateException("the transactional producers are closed");
        }
        Producer<byte[], byte[]> p = idle.pollFirst();
        if (p != null) {
            return p;
        }
        Map<String, Object> props = cluster.producerSettings("txn");
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, idBase + made.incrementAndGet());
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer());
        try {
            producer.initTransactions();
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw new MikyuException("could not start a Kafka transactional producer: " + e.getMessage(), e);
        }
        return producer;
    }

    private void giveBack(Producer<byte[], byte[]> producer, boolean reusable) {
        if (reusable && !closed) {
            idle.addFirst(producer);
        } else {
            producer.close(Duration.ZERO);
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Producer<byte[], byte[]> p; (p = idle.pollFirst()) != null; ) {
            p.close(Duration.ofSeconds(5));
        }
    }
}
