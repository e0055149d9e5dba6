package io.mikyu.broker.server;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.security.Principal;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.TransactionOp;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.util.List;

import static io.mikyu.broker.server.Request.now;

/**
 * Transaction requests: one-phase commits, and the prepared branches of two-phase commit (each owned by the user who
 * prepared it).
 */
final class TransactionRequests {

    private TransactionRequests() {
    }

    static Request decode(Op op, ByteBuf in, ConnectionState state) {
        Mikyu m = state.mikyu();
        return switch (op) {
            case TX_COMMIT -> {
                List<TransactionOp> ops = ClientClock.boundAppends(TransactionOp.readAll(in));
                Authorization.checkTransaction(ops, state.principal());
                yield now(r -> {
                    try (Transaction tx = m.beginTransaction()) {
                        ops.forEach(o -> o.addTo(tx));
                        tx.commit();
                    }
                });
            }
            case TX_PREPARE -> {
                byte[] xid = Fields.readBytes(in);
                List<TransactionOp> ops = ClientClock.boundAppends(TransactionOp.readAll(in));
                Principal who = state.principal();
                Authorization.checkTransaction(ops, who);
                yield now(r -> {
                    try (Transaction tx = m.beginTransaction()) {
                        ops.forEach(o -> o.addTo(tx));
                        tx.prepare(xid, who.name()); // the authenticated user owns it, whatever the client says
                    }
                });
            }
            case PREPARED_TRANSACTIONS -> {
                Principal who = state.principal();
                yield now(r -> r.list(who.unrestricted() ? m.preparedTransactions()
                        : Authorization.decidable(m.inDoubtTransactions(), who).stream()
                                .map(PreparedTransaction::xid).toList(), Fields::writeBytes));
            }
            case IN_DOUBT_TRANSACTIONS -> {
                Principal who = state.principal();
                yield now(r -> r.list(Authorization.decidable(m.inDoubtTransactions(), who),
                        Values::writePreparedTransaction));
            }
            case COMMIT_PREPARED -> {
                byte[] xid = Fields.readBytes(in);
                Principal who = state.principal();
                yield now(r -> {
                    Authorization.checkDecide(xid, m, who);
                    m.commitPrepared(xid);
                });
            }
            case ROLLBACK_PREPARED -> {
                byte[] xid = Fields.readBytes(in);
                Principal who = state.principal();
                yield now(r -> {
                    Authorization.checkDecide(xid, m, who);
                    m.rollbackPrepared(xid);
                });
            }
            default -> throw new IllegalArgumentException(op + " is not a request on transactions");
        };
    }
}
