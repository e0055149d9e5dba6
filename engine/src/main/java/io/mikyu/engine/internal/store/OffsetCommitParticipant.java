package io.mikyu.engine.internal.store;

import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.txn.TxParticipant;

import java.util.List;

/**
 * An exclusive consumer group's position as part of a transaction. It writes no log record of its own: the
 * commit is applied to the offsets file after the transaction's other writes, and re-applying it after a crash
 * writes the same offset again.
 */
final class OffsetCommitParticipant implements TxParticipant {

    private final LogQueueHandle queue;
    private final String group;

    OffsetCommitParticipant(LogQueueHandle queue, String group) {
        this.queue = queue;
        this.group = group;
    }

    @Override
    public SegmentedLog txLog() {
        return null;
    }

    @Override
    public void validate(List<TxOp> ops) {
        QueueNames.check("consumer group", group);
        if (queue.shared().contains(group)) {
            throw new IllegalStateException("consumer group '" + group + "' of log queue '" + queue.name()
                    + "' is a shared group: its offset follows its acks and cannot be committed");
        }
        for (TxOp op : ops) {
            long offset = ((TxOp.CommitOffset) op).offset();
            if (offset < 0 || offset > queue.endOffset()) {
                throw new IllegalArgumentException("cannot commit offset " + offset + " for group '" + group
                        + "': outside [0, " + queue.endOffset() + "] of log queue '" + queue.name() + "'");
            }
        }
    }

    @Override
    public List<TxWrite> prepareWrites(List<TxOp> ops, long txId) {
        TxOp.CommitOffset last = (TxOp.CommitOffset) ops.get(ops.size() - 1);
        return List.of(new TxWrite(null, () -> queue.group(group).commit(last.offset())));
    }

    @Override
    public void hold(List<TxOp> ops) {
    }

    @Override
    public void release(List<TxOp> ops) {
    }
}
