package io.mikyu.jms.classic;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Transaction;
import io.mikyu.jms.delivery.Inbound;
import io.mikyu.jms.delivery.MessageSource;

import java.time.Duration;
import java.util.List;

/** A message source for tests of the acknowledgement path: every call a test does not override is refused. */
abstract class SourceStub implements MessageSource {

    @Override
    public List<Inbound> fetch(int max, Duration lease, Duration wait) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void ack(List<LeaseToken> tokens) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void nack(LeaseToken token, Duration delay, String reason) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void returnUndelivered(List<LeaseToken> tokens) {
        throw new UnsupportedOperationException();
    }

    @Override
    public long extend(LeaseToken token, Duration lease) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean ackIn(Transaction tx, LeaseToken token) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
    }
}
