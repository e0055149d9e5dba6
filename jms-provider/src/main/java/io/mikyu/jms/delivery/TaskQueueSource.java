package io.mikyu.jms.delivery;

import io.mikyu.engine.GroupMember;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.Transaction;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A JMS Queue consumer's source: leased dequeues from the task queue, the selector evaluated by the engine. The
 * consumer is a message-group member of the queue (JMSXGroupID), its groups released when it closes.
 */
public final class TaskQueueSource implements MessageSource {

    private final TaskQueue queue;
    private final GroupMember member;
    private final TaskFilter filter;
    private final GroupsSeen groupsSeen = new GroupsSeen();

    public TaskQueueSource(TaskQueue queue, TaskFilter filter) {
        this.queue = queue;
        this.member = new GroupMember("consumer of " + queue.name());
        this.filter = member.take(filter);
    }

    @Override
    public List<Inbound> fetch(int max, Duration lease, Duration wait) throws InterruptedException {
        List<LeasedTask> tasks = queue.dequeue(max, lease, wait, filter);
        List<Inbound> out = new ArrayList<>(tasks.size());
        for (LeasedTask t : tasks) {
            out.add(new Inbound(groupsSeen.received(t.headers()), t.payload(), t.attempt(), t.token(),
                    t.leaseExpiresAt()));
        }
        return out;
    }

    @Override
    public void ack(List<LeaseToken> tokens) {
        queue.ack(tokens);
    }

    @Override
    public void ack(List<LeaseToken> tokens, io.mikyu.engine.Durability durability) {
        queue.ack(tokens, durability);
    }

    @Override
    public void nack(LeaseToken token, Duration delay, String reason) {
        queue.nack(token, delay, reason);
    }

    @Override
    public boolean fetchWaitsForAcks() {
        return queue.fetchWaitsForAcks();
    }

    @Override
    public void returnUndelivered(List<LeaseToken> tokens) {
        queue.returnUndelivered(tokens);
    }

    @Override
    public long extend(LeaseToken token, Duration lease) {
        return queue.extend(token, lease);
    }

    @Override
    public boolean ackIn(Transaction tx, LeaseToken token) {
        tx.ack(queue.name(), token);
        return true;
    }

    @Override
    public void close() {
        member.close();
    }
}
