package io.mikyu.jms.delivery;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.Transaction;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A topic subscription kept by the engine (durable, shared durable, shared non-durable): a shared group on the
 * topic's log queue; its admission filter is the subscription's selector and noLocal rule.
 */
public final class SharedGroupSource implements MessageSource {

    private final SharedGroup group;
    private final Runnable onClose;

    public SharedGroupSource(SharedGroup group, Runnable onClose) {
        this.group = group;
        this.onClose = onClose;
    }

    @Override
    public List<Inbound> fetch(int max, Duration lease, Duration wait) throws InterruptedException {
        List<SharedGroup.Delivery> ds = group.fetch(max, lease, wait);
        List<Inbound> out = new ArrayList<>(ds.size());
        for (SharedGroup.Delivery d : ds) {
            out.add(new Inbound(d.record().headers(), d.record().payload(), d.deliveryCount(), d.token(),
                    d.leaseExpiresAt()));
        }
        return out;
    }

    @Override
    public void ack(List<LeaseToken> tokens) {
        group.ack(tokens);
    }

    @Override
    public void ack(List<LeaseToken> tokens, io.mikyu.engine.Durability durability) {
        group.ack(tokens, durability);
    }

    @Override
    public void nack(LeaseToken token, Duration delay, String reason) {
        group.nack(token, delay, reason);
    }

    @Override
    public boolean fetchWaitsForAcks() {
        return group.fetchWaitsForAcks();
    }

    @Override
    public void returnUndelivered(List<LeaseToken> tokens) {
        group.returnUndelivered(tokens);
    }

    @Override
    public long extend(LeaseToken token, Duration lease) {
        return group.extend(token, lease);
    }

    @Override
    public boolean ackIn(Transaction tx, LeaseToken token) {
        tx.ackShared(group.queue(), group.name(), token);
        return true;
    }

    @Override
    public void close() {
        onClose.run();
    }
}
