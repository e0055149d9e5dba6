package io.mikyu.client;

import io.mikyu.engine.EngineStats;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.Transaction;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.TransactionOp;
import io.mikyu.protocol.Values;
import io.mikyu.transport.Endpoint;

import java.util.List;

/**
 * The engine's {@link Mikyu} served by a broker: what {@link Mikyu#dial(String)} returns. Every call is a request
 * on one connection, answered by the broker running the same call on its engine; failures arrive as the exception
 * types the engine throws. Thread-safe: threads share the connection and their calls are in flight together.
 *
 * <p>Closing it closes the connection and fails calls still waiting with
 * {@link io.mikyu.engine.StoreClosedException}; so does losing the connection, unless the {@code reconnect} option
 * gives it time to dial again (see {@link BrokerChannel}).
 */
public final class RemoteMikyu implements Mikyu {

    private final BrokerChannel channel;

    private RemoteMikyu(BrokerChannel channel) {
        this.channel = channel;
    }

    static RemoteMikyu connect(Endpoint endpoint, ClientOptions options) {
        return new RemoteMikyu(BrokerChannel.open(endpoint, options));
    }

    @Override
    public LogQueue createLog(String name, LogQueueConfig config) {
        return logHandle(Op.CREATE_LOG, name, config);
    }

    @Override
    public LogQueue createLog(String name) {
        return logHandle(Op.CREATE_LOG, name, null);
    }

    @Override
    public LogQueue getOrCreateLog(String name, LogQueueConfig config) {
        return logHandle(Op.GET_OR_CREATE_LOG, name, java.util.Objects.requireNonNull(config, "config"));
    }

    @Override
    public LogQueue log(String name) {
        return logHandle(Op.GET_LOG, name, null);
    }

    /** {@code name:string hasConfig:bool [config]} → {@code config}: the queue's stored settings. */
    private LogQueue logHandle(Op op, String name, LogQueueConfig config) {
        LogQueueConfig stored = channel.call(op, b -> {
            Fields.writeString(b, name);
            Fields.writeBool(b, config != null);
            if (config != null) {
                Values.writeLogConfig(b, config);
            }
        }, Values::readLogConfig);
        return new RemoteLogQueue(this, channel, name, stored);
    }

    @Override
    public boolean deleteLog(String name) {
        channel.replay().forgetQueue(name);
        return channel.call(Op.DELETE_LOG, b -> Fields.writeString(b, name), Fields::readBool);
    }

    @Override
    public TaskQueue createTaskQueue(String name, TaskQueueConfig config) {
        return taskHandle(Op.CREATE_TASK_QUEUE, name, config);
    }

    @Override
    public TaskQueue createTaskQueue(String name) {
        return taskHandle(Op.CREATE_TASK_QUEUE, name, null);
    }

    @Override
    public TaskQueue getOrCreateTaskQueue(String name, TaskQueueConfig config) {
        return taskHandle(Op.GET_OR_CREATE_TASK_QUEUE, name, java.util.Objects.requireNonNull(config, "config"));
    }

    @Override
    public TaskQueue taskQueue(String name) {
        return taskHandle(Op.GET_TASK_QUEUE, name, null);
    }

    TaskQueue taskHandle(Op op, String name, TaskQueueConfig config) {
        TaskQueueConfig stored = channel.call(op, b -> {
            Fields.writeString(b, name);
            Fields.writeBool(b, config != null);
            if (config != null) {
                Values.writeTaskConfig(b, config);
            }
        }, Values::readTaskConfig);
        return new RemoteTaskQueue(this, channel, name, stored);
    }

    @Override
    public boolean deleteTaskQueue(String name) {
        return channel.call(Op.DELETE_TASK_QUEUE, b -> Fields.writeString(b, name), Fields::readBool);
    }

    @Override
    public List<String> list(QueueKind kind) {
        return channel.callList(Op.LIST, b -> Values.writeKind(b, kind),
                b -> Fields.readRequiredString(b, "name"), 4);
    }

    /** {@code name:string mode:u8} → nothing; refused with {@code CLAIMED}. Held until released or disconnected. */
    @Override
    public io.mikyu.engine.Claim claim(String name, io.mikyu.engine.ClaimMode mode) {
        java.util.Objects.requireNonNull(name, "name");
        java.util.Objects.requireNonNull(mode, "mode");
        RemoteClaim claim = new RemoteClaim(channel, name, mode);
        channel.call(Op.CLAIM, claim::writeArgs, b -> null);
        channel.replay().claimed(claim);
        return claim;
    }

    @Override
    public int claimHolders(String name) {
        return channel.call(Op.CLAIM_HOLDERS, b -> Fields.writeString(b, name), Fields::readInt);
    }

    /**
     * {@code queue group claim:string} → {@code bool}. A broker without feature GUARDED_DELETES can only be asked
     * in two steps, which another client may come between: checked, then deleted.
     */
    @Override
    public boolean deleteGroupUnlessClaimed(String log, String group, String claim) {
        boolean deleted;
        if (channel.guardedDeletes()) {
            deleted = channel.call(Op.DELETE_GROUP_UNLESS_CLAIMED, b -> {
                Fields.writeString(b, log);
                Fields.writeString(b, group);
                Fields.writeString(b, claim);
            }, Fields::readBool);
        } else {
            deleted = claimHolders(claim) == 0 && log(log).deleteGroup(group);
        }
        if (deleted) {
            channel.replay().forgetGroup(log, group);
        }
        return deleted;
    }

    /** Collected here and sent whole at commit or prepare, as the engine itself writes nothing before then. */
    /** A body for no queue in particular: a broker with users refuses it (the permission is the queue's). */
    @Override
    public io.mikyu.engine.BodyUpload uploadBody() {
        return uploadBody("");
    }

    @Override
    public io.mikyu.engine.BodyUpload uploadBody(String queue) {
        checkLargeBodies();
        return RemoteBodyUpload.open(channel, java.util.Objects.requireNonNull(queue, "queue"));
    }

    @Override
    public java.io.InputStream openBody(io.mikyu.engine.LargeBody body) {
        return openBody("", body);
    }

    @Override
    public java.io.InputStream openBody(String queue, io.mikyu.engine.LargeBody body) {
        checkLargeBodies();
        return new RemoteBodyInputStream(channel, java.util.Objects.requireNonNull(queue, "queue"),
                java.util.Objects.requireNonNull(body, "body")).start();
    }

    private void checkLargeBodies() {
        if (!channel.largeBodies()) {
            throw new UnsupportedOperationException("large bodies are not supported by " + location()
                    + ": the broker is older than this client");
        }
    }

    @Override
    public Transaction beginTransaction() {
        return new RemoteTransaction(this);
    }

    void commit(List<TransactionOp> ops) {
        channel.call(Op.TX_COMMIT, b -> TransactionOp.writeAll(b, ops), b -> null);
    }

    void prepare(byte[] xid, List<TransactionOp> ops) {
        channel.call(Op.TX_PREPARE, b -> {
            Fields.writeBytes(b, xid);
            TransactionOp.writeAll(b, ops);
        }, b -> null);
    }

    @Override
    public List<byte[]> preparedTransactions() {
        return channel.callList(Op.PREPARED_TRANSACTIONS, b -> { }, b -> Fields.readRequiredBytes(b, "xid"), 4);
    }

    /** Only the branches the connection's user may decide, on a broker with users. */
    @Override
    public List<PreparedTransaction> inDoubtTransactions() {
        if (!channel.xa()) {
            throw tooOld("list in-doubt transactions");
        }
        return channel.callList(Op.IN_DOUBT_TRANSACTIONS, b -> { }, Values::readPreparedTransaction, 20);
    }

    /** Told by the broker in the handshake: no request. */
    @Override
    public String storeId() {
        String id = channel.storeId();
        if (id == null) {
            throw tooOld("tell its store id");
        }
        return id;
    }

    private UnsupportedOperationException tooOld(String what) {
        return new UnsupportedOperationException("the broker at " + location() + " is too old to " + what
                + " (it lacks protocol feature XA)");
    }

    @Override
    public void commitPrepared(byte[] xid) {
        channel.call(Op.COMMIT_PREPARED, b -> Fields.writeBytes(b, java.util.Objects.requireNonNull(xid, "xid")),
                b -> null);
    }

    @Override
    public void rollbackPrepared(byte[] xid) {
        channel.call(Op.ROLLBACK_PREPARED,
                b -> Fields.writeBytes(b, java.util.Objects.requireNonNull(xid, "xid")), b -> null);
    }

    @Override
    public EngineStats stats() {
        return channel.call(Op.STATS, b -> { }, Values::readEngineStats);
    }

    @Override
    public RecoveryReport recoveryReport() {
        return channel.call(Op.RECOVERY_REPORT, b -> { }, Values::readRecoveryReport);
    }

    /** The URI this store was dialled at. */
    @Override
    public String location() {
        return channel.endpoint().toString();
    }

    @Override
    public void flush() {
        channel.call(Op.FLUSH, b -> { }, b -> null);
    }

    @Override
    public void close() {
        channel.close();
    }

    /** Whether the connection is still up. */
    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public String toString() {
        return "RemoteMikyu[" + location() + "]";
    }
}
