package io.mikyu.engine.internal.store;

import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.txn.TxParticipant;
import io.mikyu.engine.internal.write.AppendRequest;

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
        for (TxOp op : ops) {
            long offset = ((TxOp.CommitOffset) op).offset();
            if (offset < 0 || offset > queue.endOffset()) {
                throw new IllegalArgumentException("cannot commit offset " + offset + " for group '" + group
                        + "': outside [0, " + queue.endOffset() + "] of log queue '" + queue.name() + "'");
            }
        }
    }

    @Override
    public List<AppendRequest> prepareWrites(List<TxOp> ops, long txId) {
        return List.of();
    }

    @Override
    public void afterWrites(List<TxOp> ops, List<AppendRequest> written) {
        TxOp.CommitOffset last = (TxOp.CommitOffset) ops.get(ops.size() - 1);
        queue.group(group).commit(last.offset());
    }

    @Override
    public void hold(List<TxOp> ops) {
    }

    @Override
    public void release(List<TxOp> ops) {
    }
}
