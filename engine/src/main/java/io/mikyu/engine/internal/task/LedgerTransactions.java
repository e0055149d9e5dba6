package io.mikyu.engine.internal.task;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.BatchEncoder;
import io.mikyu.engine.internal.format.TaskRecordDescriptor;
import io.mikyu.engine.internal.write.AppendRequest;
import io.mikyu.engine.TimeSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * A ledger as a transaction participant: checks, writes and applies the acks, nacks and dead-letter moves that
 * transactions decide ({@link Settlement}s), and holds or releases the leases of prepared transactions.
 */
final class LedgerTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerTransactions.class);

    private final LeaseLedger ledger;
    private final TaskQueueState state;
    private final TaskQueueConfig config;
    private final TimeSource clock;

    LedgerTransactions(LeaseLedger ledger) {
        this.ledger = ledger;
        this.state = ledger.state;
        this.config = ledger.config;
        this.clock = ledger.clock;
    }

    /** Fails unless every settlement's lease still holds, and every dead letter's task is leaving under it. */
    void validate(List<Settlement> settlements) {
        ledger.withLock(() -> {
            for (Settlement s : settlements) {
                if (!s.dead()) {
                    state.holder(s.token());
                } else {
                    checkLeaving(s.token());
                }
            }
        });
    }

    /**
     * A dead letter's task left its lease when the ledger decided to move it, and stays leaving until the move is
     * applied. Anything else is another task under the same id: one of a queue deleted and created again under the
     * same name while the deleted queue's move was under way, which must not finish it.
     */
    private void checkLeaving(LeaseToken token) {
        TaskEntry e = state.find(token.taskId());
        if (e == null || e.state != TaskEntry.State.LEAVING || e.lease != token.lease()) {
            throw new StaleLeaseException("task " + token.taskId() + " of '" + ledger.name + "' is not leaving for"
                    + " the dead-letter queue under lease " + token.lease() + ": the move is of another task");
        }
    }

    /** The state records of {@code settlements}, as one request stamped with {@code txId}. */
    AppendRequest settleRequest(List<Settlement> settlements, long txId) {
        long now = clock.steadyMillis();
        List<Entry> records = new ArrayList<>(settlements.size());
        ledger.withLock(() -> {
            for (Settlement s : settlements) {
                TaskEntry e = state.find(s.token().taskId());
                records.add(settleRecord(s, e == null ? 0 : e.attempts, now));
            }
        });
        byte[] batch = BatchEncoder.encode(records, now, ledger.engine.maxRecordBytes(), ledger.engine.maxBatchBytes(),
                BatchDescriptor.TYPE_TASK_STATE, txId);
        // Not fsynced here: the COMMIT record holds the decisions, and its APPLIED record waits until these records
        // are fsynced (a DEAD record lost with APPLIED kept would move the task a second time).
        return new AppendRequest(ledger.stateLog, batch, false);
    }

    /** The ACK or NACK record of one settlement; under the lock. */
    private Entry settleRecord(Settlement s, int attempts, long now) {
        long id = s.token().taskId();
        long lease = s.token().lease();
        if (s.dead()) {
            return ledger.stateRecord(TaskRecordDescriptor.DEAD, id, lease, now, s.attempts(), s.reason());
        }
        if (!s.nack()) {
            return ledger.stateRecord(TaskRecordDescriptor.ACK, id, lease, 0, attempts, null);
        }
        long delay = s.delayMillis() < 0 ? config.backoff(attempts).toMillis() : s.delayMillis();
        return ledger.stateRecord(TaskRecordDescriptor.NACK, id, lease, now + delay, attempts, s.reason());
    }

    /**
     * After a transaction's settle records were written: its decisions stand whatever happened to the leases
     * since (the records already say so, and replay would apply them the same way).
     */
    void settled(List<Settlement> settlements) {
        List<TaskEntry> leaving = new ArrayList<>();
        ledger.withLock(() -> {
            long now = clock.steadyMillis();
            for (Settlement s : settlements) {
                TaskEntry e = state.find(s.token().taskId());
                if (s.dead()) {
                    if (e != null) {
                        state.finish(e.id);
                        ledger.deadLetters.countMoved();
                    }
                    continue;
                }
                if (e == null || e.state == TaskEntry.State.LEAVING) {
                    continue;
                }
                e.heldByTransaction = false;
                if (!s.nack()) {
                    state.finish(e.id);
                    ledger.acked++;
                } else if (e.attempts >= config.maxAttempts()) {
                    state.leave(e, s.reason() == null ? "rolled back " + e.attempts + " times" : s.reason());
                    leaving.add(e);
                } else {
                    long delay = s.delayMillis() < 0 ? config.backoff(e.attempts).toMillis() : s.delayMillis();
                    state.giveBack(e, now + delay, s.reason(), now);
                }
            }
            ledger.waiting.wakeAll();
        });
        ledger.deadLetters.move(leaving);
    }

    /** Keeps the settled tasks leased until the prepared transaction is decided. */
    void hold(List<Settlement> settlements) {
        ledger.withLock(() -> {
            for (Settlement s : settlements) {
                TaskEntry e = state.find(s.token().taskId());
                if (e != null && e.lease == s.token().lease() && e.state == TaskEntry.State.LEASED) {
                    state.extend(e, Long.MAX_VALUE);
                    e.heldByTransaction = true;
                }
            }
        });
    }

    /**
     * A rolled-back prepared transaction's tasks come back at once, as a nack without delay would bring them (the
     * attempt was counted when they were leased). Written as NACK records after the ROLLBACK record, so a restart
     * finds them ready too, rather than leased until their old lease ends; if that write fails they are still
     * given back in memory, and a restart gives them back when their leases end.
     */
    void release(List<Settlement> settlements) {
        List<Settlement> nacks = new ArrayList<>();
        List<Entry> records = new ArrayList<>();
        ledger.withLock(() -> {
            long now = clock.steadyMillis();
            for (Settlement s : settlements) {
                TaskEntry e = state.find(s.token().taskId());
                if (e != null && e.lease == s.token().lease() && e.state == TaskEntry.State.LEASED) {
                    Settlement nack = new Settlement(s.token(), true, 0, "its transaction was rolled back");
                    nacks.add(nack);
                    if (!e.isTransient()) {
                        records.add(settleRecord(nack, e.attempts, now));
                    }
                }
            }
        });
        try {
            ledger.writeState(records);
        } catch (RuntimeException failure) {
            LOG.warn("recording the release of {} tasks of '{}' after a rollback failed; they are given back now, and"
                    + " after a restart when their leases end", records.size(), ledger.name, failure);
        }
        settled(nacks);
    }
}
