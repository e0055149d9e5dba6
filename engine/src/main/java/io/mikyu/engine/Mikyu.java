package io.mikyu.engine;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The one interface the rest of mikyu programs against: a store of queues.
 *
 * <p>{@link #open(Path)} returns it in-process; {@link #dial(String)} returns the same interface served by a broker
 * over the network. Queue kinds live apart: {@code log/events} and {@code task/events} are different queues.
 *
 * <p>Implementations are thread-safe. Closing the store closes every queue handle obtained from it.
 */
public interface Mikyu extends AutoCloseable {

    /** Opens (creating if needed) the store in {@code dataDir} with default configuration. */
    static Mikyu open(Path dataDir) {
        return open(dataDir, EngineConfig.defaults());
    }

    /**
     * Opens (creating if needed) the store in {@code dataDir}.
     *
     * @throws StoreLockedException if another process, or this one, already holds the directory
     * @throws CorruptionException  if recovery finds damage it may not repair under the configured policy
     */
    static Mikyu open(Path dataDir, EngineConfig config) {
        return LocalStores.opener().open(dataDir, config);
    }

    /**
     * Connects to a broker: {@code tcp://host:port} or {@code unix:///path/to/mikyu.sock}, options in the query
     * (e.g. {@code ?clientName=billing}). Needs the {@code io.mikyu:mikyu-client} artifact on the class path.
     */
    static Mikyu dial(String uri) {
        return dial(uri, Map.of());
    }

    /** As {@link #dial(String)}; {@code options} win over the same options in the URI's query. */
    static Mikyu dial(String uri, Map<String, String> options) {
        URI parsed = URI.create(uri);
        for (Dialer dialer : ServiceLoader.load(Dialer.class, Mikyu.class.getClassLoader())) {
            if (dialer.supports(parsed)) {
                return dialer.dial(parsed, options);
            }
        }
        throw new MikyuException("no dialer for '" + Secrets.redact(uri) + "' on the class path: add the artifact"
                + " io.mikyu:mikyu-client (it dials tcp:// and unix:// brokers)");
    }

    /** Creates a log queue; fails with {@link QueueExistsException} if it exists. */
    LogQueue createLog(String name, LogQueueConfig config);

    /** Creates a log queue with the store's defaults (durability from {@link EngineConfig#defaultDurability()}). */
    LogQueue createLog(String name);

    /** Returns the log queue, creating it with {@code config} if it does not exist. */
    LogQueue getOrCreateLog(String name, LogQueueConfig config);

    /** An existing log queue; {@link QueueNotFoundException} if there is none. */
    LogQueue log(String name);

    /** Deletes a log queue with its data and consumer groups; {@code false} if it did not exist. */
    boolean deleteLog(String name);

    /**
     * Creates a task queue and its dead-letter queue {@code <name>/dlq}; {@link QueueExistsException} if it exists.
     */
    TaskQueue createTaskQueue(String name, TaskQueueConfig config);

    /** Creates a task queue with the store's default durability. */
    TaskQueue createTaskQueue(String name);

    /** Returns the task queue, creating it with {@code config} if it does not exist. */
    TaskQueue getOrCreateTaskQueue(String name, TaskQueueConfig config);

    /** An existing task queue, or a dead-letter queue by its name {@code <name>/dlq}. */
    TaskQueue taskQueue(String name);

    /** Deletes a task queue with its tasks and its dead-letter queue; {@code false} if it did not exist. */
    boolean deleteTaskQueue(String name);

    /** Names of the queues of a kind, sorted; for tasks, dead-letter queues included. */
    List<String> list(QueueKind kind);

    /**
     * Claims {@code name} for this handle's user until the claim is released (see {@link Claim}). An exclusive
     * claim needs the name unclaimed; a shared claim needs it not claimed exclusively.
     *
     * @throws ClaimedException if the name is claimed in a conflicting mode
     */
    Claim claim(String name, ClaimMode mode);

    /** How many hold a claim on {@code name}, through any handle of this store. */
    int claimHolders(String name);

    /**
     * Deletes consumer group {@code group} of log queue {@code log} unless somebody holds a claim on {@code claim},
     * in one step as far as claims go: a claim taken before this call keeps the group, one taken after it finds the
     * group gone. What a consumer that claims a group's name before opening it needs, so that another client
     * deleting an idle group cannot delete it under that consumer.
     *
     * @return whether the group was deleted ({@code false}: the claim is held, or there is no such group)
     * @throws QueueNotFoundException if there is no log queue {@code log}
     */
    boolean deleteGroupUnlessClaimed(String log, String group, String claim);

    /**
     * Starts a large body: one stored beside the queues, of any length, written and read as a stream, that tasks
     * name instead of carrying it ({@link BodyUpload}).
     *
     * @throws UnsupportedOperationException where large bodies are not supported (a broker without the feature)
     */
    default BodyUpload uploadBody() {
        throw new UnsupportedOperationException("large bodies are not supported by " + location());
    }

    /**
     * Reads a published large body, one chunk at a time, each checked against its checksum before it is handed out
     * (damage is an {@link java.io.IOException} naming the file and position).
     *
     * @throws MikyuException if there is no such body (it was never published, or no task names it any more)
     * @throws UnsupportedOperationException where large bodies are not supported (a broker without the feature)
     */
    default java.io.InputStream openBody(LargeBody body) {
        throw new UnsupportedOperationException("large bodies are not supported by " + location());
    }

    /**
     * As {@link #uploadBody()} for a body a task of {@code queue} will name: over a broker with users, uploading
     * takes the produce permission on that queue. In-process the queue is not looked at.
     */
    default BodyUpload uploadBody(String queue) {
        return uploadBody();
    }

    /**
     * As {@link #openBody(LargeBody)} for a body a record of {@code queue} names: over a broker with users, reading
     * takes the consume permission on that queue. In-process the queue is not looked at.
     */
    default java.io.InputStream openBody(String queue, LargeBody body) {
        return openBody(body);
    }

    /** Starts an atomic batch across queues; see {@link Transaction}. */
    Transaction beginTransaction();

    /** Xids of transactions prepared and not yet decided, also those recovered after a restart. */
    List<byte[]> preparedTransactions();

    /**
     * Transactions prepared and not yet decided (in doubt), also those recovered after a restart, oldest first:
     * their xid, owner, time of preparing and queues. Over a broker with users, only those the user may decide.
     */
    List<PreparedTransaction> inDoubtTransactions();

    /**
     * Phase two: applies a prepared transaction.
     *
     * @throws TransactionNotFoundException if no transaction is prepared as {@code xid}
     */
    void commitPrepared(byte[] xid);

    /**
     * Phase two: discards a prepared transaction; the tasks it would have acked return to their queues.
     *
     * @throws TransactionNotFoundException if no transaction is prepared as {@code xid}
     */
    void rollbackPrepared(byte[] xid);

    /**
     * The store's identity: a random UUID (its canonical text) made when the data directory was first opened and
     * kept in it, so it stays the same across restarts and for every handle on the store, in-process or dialled
     * through its broker. Two handles on different stores have different ids (an XA resource manager's identity).
     */
    String storeId();

    /** Engine-wide statistics (write path, caches, disk), over every queue: opens those not opened yet. */
    EngineStats stats();

    /**
     * What recovery found when this store was opened: torn tails cut, files quarantined, indexes rebuilt. A queue
     * recovers when it opens (on first use, or in the background), so this opens every queue not opened yet.
     */
    RecoveryReport recoveryReport();

    /** The directory this store lives in, or for a remote store the URI it was dialled at. */
    String location();

    /** Flushes everything written so far to disk, whatever the durability of the writes. */
    void flush();

    /**
     * Whether calls can still succeed: {@code false} once closed, and for a dialled broker once its connection is
     * lost (calls then fail with {@link StoreClosedException}).
     */
    boolean isOpen();

    /** Flushes, closes every queue and releases the directory lock. Idempotent. */
    @Override
    void close();
}
