package io.mikyu.broker.server;

import io.mikyu.engine.Durability;
import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;

import static io.mikyu.broker.server.Request.now;
import static io.mikyu.broker.server.Request.waiting;
import static io.mikyu.protocol.Fields.readInt;
import static io.mikyu.protocol.Fields.readMillis;
import static io.mikyu.protocol.Fields.readString;

/** Requests on a shared group of a log queue, as opened on this connection: fetch, ack, nack, leases. */
final class SharedGroupRequests {

    private SharedGroupRequests() {
    }

    static Request decode(Op op, ByteBuf in, ConnectionState state) {
        Mikyu m = state.mikyu();
        return switch (op) {
            case SHARED_OPEN -> {
                String queue = readString(in);
                String group = readString(in);
                SharedGroupConfig config = Values.readSharedConfig(in);
                FilterExpression filter = Values.readFilter(in);
                OffsetReset startIfNew = Values.readOffsetReset(in);
                yield now(r -> {
                    LogQueue log = m.log(queue);
                    SharedGroup g = log.sharedGroup(group, config, state.filter(filter), startIfNew);
                    state.opened(queue, group, g);
                    Values.writeSharedConfig(r.body(), g.config());
                });
            }
            case SHARED_FETCH -> {
                String queue = readString(in);
                String group = readString(in);
                int max = readInt(in);
                Duration lease = readMillis(in);
                Duration wait = readMillis(in);
                yield waiting(wait, r -> {
                    SharedGroup g = state.sharedGroup(queue, group);
                    List<SharedGroup.Delivery> deliveries = g.fetch(max, lease, wait);
                    int sent = r.listUpTo(deliveries, Values::writeDelivery, r.maxResultBytes());
                    Requests.giveBackUnsent(deliveries.subList(sent, deliveries.size()), SharedGroup.Delivery::token,
                            g::returnUndelivered);
                });
            }
            case SHARED_ACK -> {
                String queue = readString(in);
                String group = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                yield now(r -> {
                    SharedGroup g = state.sharedGroup(queue, group);
                    if (tokens.size() == 1) {
                        g.ack(tokens.get(0));
                    } else {
                        g.ack(tokens);
                    }
                });
            }
            case SHARED_ACK_DURABLE -> {
                String queue = readString(in);
                String group = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                Durability durability = Values.readDurability(in);
                yield now(r -> state.sharedGroup(queue, group).ack(tokens, durability));
            }
            case SHARED_NACK -> {
                String queue = readString(in);
                String group = readString(in);
                LeaseToken token = Values.readToken(in);
                Duration delay = readMillis(in);
                String reason = readString(in);
                yield now(r -> state.sharedGroup(queue, group).nack(token, delay, reason));
            }
            case SHARED_RETURN_UNDELIVERED -> {
                String queue = readString(in);
                String group = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                yield now(r -> state.sharedGroup(queue, group).returnUndelivered(tokens));
            }
            case SHARED_EXTEND -> {
                String queue = readString(in);
                String group = readString(in);
                LeaseToken token = Values.readToken(in);
                Duration lease = readMillis(in);
                yield now(r -> r.body().writeLong(state.sharedGroup(queue, group).extend(token, lease)));
            }
            case SHARED_COMMITTED -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> r.body().writeLong(state.sharedGroup(queue, group).committedOffset()));
            }
            case SHARED_COUNTS -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> Values.writeCounts(r.body(), state.sharedGroup(queue, group).counts()));
            }
            case SHARED_LAG -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> r.body().writeLong(state.sharedGroup(queue, group).lag()));
            }
            default -> throw new IllegalArgumentException(op + " is not a request on a shared group");
        };
    }
}
