package io.mikyu.jms.classic;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.PreparedAhead;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.Transaction;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.delivery.MessageSource;
import io.mikyu.jms.message.EncodedMessage;
import io.mikyu.jms.metrics.JmsMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a transaction in progress has done: the messages it sent, held back until it commits, and the messages it
 * consumed, leased to it until then. A transacted session has one; an XA branch has one, shared by every session
 * that joins it. {@link #take()} hands the work to {@link Taken}, which commits it, prepares it under an Xid, or
 * rolls it back (the sends dropped, the consumed messages delivered again, flagged redelivered).
 *
 * <p>Thread-safe: a session adds to it on its own thread, while a branch's timeout may roll it back from a timer.
 */
final class TransactionWork {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionWork.class);

    private final List<PendingSend> sends = new ArrayList<>();
    private final List<Held> consumed = new ArrayList<>();

    /**
     * A message sent in the transaction; {@code body} is the upload of its large body (null if it has none), kept
     * open until the transaction is decided so that the store keeps the body, which no record names yet.
     */
    record PendingSend(MikyuDestination destination, EncodedMessage message, LargeMessages.Upload body) {
    }

    synchronized void send(MikyuDestination destination, EncodedMessage message, LargeMessages.Upload body) {
        sends.add(new PendingSend(destination, message, body));
    }

    synchronized void consumed(Held h) {
        consumed.add(h);
    }

    synchronized boolean isEmpty() {
        return sends.isEmpty() && consumed.isEmpty();
    }

    /** Whether a message of the engine group {@code group} (a subscription) was consumed and not yet settled. */
    synchronized boolean consumedFrom(String group) {
        for (Held h : consumed) {
            if (group.equals(h.consumer.subscription())) {
                return true;
            }
        }
        return false;
    }

    /** The messages consumed so far (for lease renewal). */
    synchronized List<Held> consumedNow() {
        return List.copyOf(consumed);
    }

    /** Everything done so far, leaving this empty for what comes next. */
    synchronized Taken take() {
        Taken t = new Taken(List.copyOf(sends), List.copyOf(consumed));
        sends.clear();
        consumed.clear();
        return t;
    }

    /** Everything done so far, left in place (a branch that may still be joined writes it ahead). */
    synchronized Taken snapshot() {
        return new Taken(List.copyOf(sends), List.copyOf(consumed));
    }

    /** A transaction's work taken out to be finished: committed, prepared or rolled back, once. */
    record Taken(List<PendingSend> sends, List<Held> consumed) {

        boolean isEmpty() {
            return sends.isEmpty() && consumed.isEmpty();
        }

        /**
         * Commits the work. The common shapes need no transaction record (see {@link #commitInOneWrite}); the
         * rest is one engine transaction. Afterwards the consumed messages are settled for good. A commit the
         * store decided but could not apply yet ({@link CommitFailure#COMMITTED}) is committed: it returns.
         *
         * @throws RuntimeException the engine's failure, to be read with {@link CommitFailure#of}: before the first
         *                          write it is wrapped in {@link CommitFailure.NothingWritten}
         */
        void commit(MikyuConnection connection) {
            if (isEmpty()) {
                return;
            }
            List<Held> afterCommit = new ArrayList<>();
            try {
                if (!commitInOneWrite(connection)) {
                    try (Transaction tx = beforeWriting(connection.engine::beginTransaction)) {
                        beforeWriting(() -> addTo(tx, connection, afterCommit));
                        tx.commit();
                    }
                }
            } catch (RuntimeException e) {
                if (CommitFailure.of(e) != CommitFailure.COMMITTED) {
                    throw e;
                }
                LOG.warn("a transaction is committed but not applied yet; the store applies it later: {}",
                        e.getMessage());
            }
            ackOutsideTransactions(afterCommit);
            JmsMetrics.GLOBAL.sent(sends.size());
            forgetLeases();
            releaseBodies();
        }

        /**
         * Phase one: writes the work as a transaction prepared under {@code xid}. Its consumed messages stay
         * leased to it (the engine holds them) until {@link #afterPrepared} finishes it.
         */
        void prepare(MikyuConnection connection, byte[] xid, String owner) {
            List<Held> outside = new ArrayList<>();
            try (Transaction tx = beforeWriting(connection.engine::beginTransaction)) {
                beforeWriting(() -> addTo(tx, connection, outside));
                tx.prepare(xid, owner);
            }
            forgetLeases();
            releaseBodies(); // a prepared branch holds the sweep back until it is decided
        }

        /**
         * Starts writing the work's PREPARE record under {@code xid} without waiting for it
         * ({@code Transaction.prepareAhead}); the consumed messages' leases stay this session's to renew until the
         * returned handle is confirmed ({@link #confirmAhead}), committed ({@link #commitAhead}) or rolled back.
         */
        PreparedAhead prepareAhead(MikyuConnection connection, byte[] xid, String owner) {
            Transaction tx = beforeWriting(connection.engine::beginTransaction);
            try {
                beforeWriting(() -> addTo(tx, connection, new ArrayList<>()));
                return tx.prepareAhead(xid, owner);
            } finally {
                tx.close();
            }
        }

        /** Phase one of work written ahead (taken since, unchanged): as {@link #prepare}, without its write. */
        void confirmAhead(PreparedAhead ahead) {
            ahead.confirm();
            forgetLeases();
            releaseBodies();
        }

        /** A one-phase commit of work written ahead (taken since, unchanged): as {@link #commit}. */
        void commitAhead(PreparedAhead ahead) {
            try {
                ahead.commit();
            } catch (RuntimeException e) {
                if (CommitFailure.of(e) != CommitFailure.COMMITTED) {
                    throw e;
                }
                LOG.warn("a transaction is committed but not applied yet; the store applies it later: {}",
                        e.getMessage());
            }
            List<Held> outside = new ArrayList<>();
            for (Held h : consumed) {
                if (!h.source.transactional()) {
                    outside.add(h);
                }
            }
            ackOutsideTransactions(outside);
            JmsMetrics.GLOBAL.sent(sends.size());
            forgetLeases();
            releaseBodies();
        }

        /** Whether {@code other} holds the same work: work only grows, so the same sizes are the same work. */
        boolean sameAs(Taken other) {
            return sends.size() == other.sends.size() && consumed.size() == other.consumed.size();
        }

        /** Once a prepared transaction was decided in this JVM: what the engine transaction could not carry. */
        void afterPrepared(boolean committed, String reason) {
            List<Held> outside = new ArrayList<>();
            for (Held h : consumed) {
                if (!h.source.transactional()) {
                    outside.add(h);
                }
            }
            if (committed) {
                ackOutsideTransactions(outside);
                JmsMetrics.GLOBAL.sent(sends.size());
            } else {
                for (Held h : outside) {
                    h.consumer.session().leases.settle(h, false, reason);
                }
            }
            releaseBodies();
        }

        /**
         * After a commit whose outcome is unknown: the session stops renewing the consumed messages' leases. If the
         * commit took effect they are settled; if not, they come back, flagged redelivered, when their leases end.
         * Nothing is nacked, which could race a commit still under way. Messages of non-durable subscriptions (in
         * memory, outside the store's transactions) are delivered again. The large bodies' uploads stay open: if the
         * commit took effect its records name them, and if not they are orphans once the connection ends.
         */
        void abandon(String reason) {
            for (Held h : consumed) {
                if (h.source.transactional()) {
                    h.consumer.session().leases.released(h);
                } else {
                    h.consumer.session().leases.settle(h, false, reason);
                }
            }
        }

        /**
         * Drops the sends (their large bodies, named by no record, are deleted by the store's next sweeps); the
         * consumed messages are delivered again, flagged redelivered.
         */
        void rollback(String reason) {
            releaseBodies();
            for (Held h : consumed) {
                h.consumer.session().leases.settle(h, false, reason);
            }
        }

        /** The transaction is decided (or prepared): its records keep their large bodies from now on, if any. */
        private void releaseBodies() {
            for (PendingSend s : sends) {
                if (s.body() != null) {
                    s.body().close();
                }
            }
        }

        /** Adds the work to {@code tx} (nothing is written yet); returns {@code tx}. */
        private Transaction addTo(Transaction tx, MikyuConnection connection, List<Held> outside) {
            for (PendingSend s : sends) {
                if (s.destination().isQueue()) {
                    connection.taskQueue(s.destination().name());
                    tx.enqueue(s.destination().name(), s.message().toTask());
                } else {
                    connection.logQueue(s.destination().name());
                    tx.append(s.destination().name(), s.message().toEntry());
                }
            }
            for (Held h : consumed) {
                if (!h.source.ackIn(tx, h.token())) {
                    outside.add(h);
                }
            }
            return tx;
        }

        /**
         * Sends to one destination and nothing consumed are one batch append (a batch is written whole or, torn by
         * a crash, cut whole); acks from one source and nothing sent are one batch of ack records. Both are as
         * durable as PERSISTENT sends. False for anything else, which takes an engine {@link Transaction}.
         */
        private boolean commitInOneWrite(MikyuConnection connection) {
            Durability durability = connection.options.persistentDurability();
            if (consumed.isEmpty()) {
                MikyuDestination d = sends.get(0).destination();
                for (PendingSend p : sends) {
                    if (!p.destination().equals(d)) {
                        return false;
                    }
                }
                if (d.isQueue()) {
                    List<Task> tasks = new ArrayList<>(sends.size());
                    for (PendingSend p : sends) {
                        tasks.add(p.message().toTask());
                    }
                    TaskQueue q = beforeWriting(() -> connection.taskQueue(d.name()));
                    q.enqueueBatch(tasks, durability);
                } else {
                    List<Entry> entries = new ArrayList<>(sends.size());
                    for (PendingSend p : sends) {
                        entries.add(p.message().toEntry());
                    }
                    LogQueue q = beforeWriting(() -> connection.logQueue(d.name()));
                    q.appendBatch(entries, durability);
                }
                return true;
            }
            if (!sends.isEmpty()) {
                return false;
            }
            MessageSource source = consumed.get(0).source;
            for (Held h : consumed) {
                if (h.source != source) {
                    return false;
                }
            }
            List<LeaseToken> tokens = new ArrayList<>(consumed.size());
            for (Held h : consumed) {
                tokens.add(h.token());
            }
            source.ack(tokens, durability);
            return true;
        }

        /** Looks something up before the first write: a failure means nothing was committed. */
        private static <T> T beforeWriting(Supplier<T> lookup) {
            try {
                return lookup.get();
            } catch (RuntimeException e) {
                throw new CommitFailure.NothingWritten(e);
            }
        }

        /** The session stops renewing: the messages are settled, or held by a prepared transaction. */
        private void forgetLeases() {
            for (Held h : consumed) {
                h.consumer.session().leases.released(h);
            }
        }
    }

    /** Acks of sources that cannot take part in an engine transaction (non-durable subscriptions), by source. */
    static void ackOutsideTransactions(List<Held> held) {
        Map<MessageSource, List<LeaseToken>> bySource = new IdentityHashMap<>();
        for (Held h : held) {
            bySource.computeIfAbsent(h.source, k -> new ArrayList<>()).add(h.token());
        }
        bySource.forEach(MessageSource::ack);
    }
}
