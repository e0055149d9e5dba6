package io.mikyu.broker.server;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.security.Permission;
import io.mikyu.engine.security.Principal;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import static io.mikyu.broker.server.Request.now;
import static io.mikyu.protocol.Fields.readBool;
import static io.mikyu.protocol.Fields.readString;

/** Requests on the store as a whole: creating, finding and deleting queues, listing, stats, claims. */
final class StoreRequests {

    private StoreRequests() {
    }

    static Request decode(Op op, ByteBuf in, ConnectionState state) {
        Mikyu m = state.mikyu();
        return switch (op) {
            case CREATE_LOG -> {
                String name = readString(in);
                LogQueueConfig config = readBool(in) ? Values.readLogConfig(in) : null;
                yield now(r -> Values.writeLogConfig(r.body(),
                        (config == null ? m.createLog(name) : m.createLog(name, config)).config()));
            }
            case GET_OR_CREATE_LOG -> {
                String name = readString(in);
                LogQueueConfig config = readBool(in) ? Values.readLogConfig(in) : null;
                yield now(r -> {
                    mayCreate(state, QueueKind.LOG, name);
                    Values.writeLogConfig(r.body(), m.getOrCreateLog(name, config).config());
                });
            }
            case GET_LOG -> {
                String name = readString(in);
                readBool(in);
                yield now(r -> Values.writeLogConfig(r.body(), m.log(name).config()));
            }
            case DELETE_LOG -> {
                String name = readString(in);
                yield now(r -> Fields.writeBool(r.body(), m.deleteLog(name)));
            }
            case CREATE_TASK_QUEUE -> {
                String name = readString(in);
                TaskQueueConfig config = readBool(in) ? Values.readTaskConfig(in) : null;
                yield now(r -> Values.writeTaskConfig(r.body(),
                        (config == null ? m.createTaskQueue(name) : m.createTaskQueue(name, config)).config()));
            }
            case GET_OR_CREATE_TASK_QUEUE -> {
                String name = readString(in);
                TaskQueueConfig config = readBool(in) ? Values.readTaskConfig(in) : null;
                yield now(r -> {
                    mayCreate(state, QueueKind.TASK, name);
                    Values.writeTaskConfig(r.body(), m.getOrCreateTaskQueue(name, config).config());
                });
            }
            case GET_TASK_QUEUE -> {
                String name = readString(in);
                readBool(in);
                yield now(r -> Values.writeTaskConfig(r.body(), m.taskQueue(name).config()));
            }
            case DELETE_TASK_QUEUE -> {
                String name = readString(in);
                yield now(r -> Fields.writeBool(r.body(), m.deleteTaskQueue(name)));
            }
            case LIST -> {
                QueueKind kind = Values.readKind(in);
                Principal who = state.principal();
                yield now(r -> r.list(who.unrestricted() ? m.list(kind)
                        : m.list(kind).stream().filter(who::mayAny).toList(), Fields::writeString));
            }
            case STATS -> now(r -> Values.writeEngineStats(r.body(), m.stats()));
            case RECOVERY_REPORT -> now(r -> Values.writeRecoveryReport(r.body(), m.recoveryReport()));
            case FLUSH -> now(r -> m.flush());
            case CLAIM -> {
                String name = readString(in);
                ClaimMode mode = Values.readClaimMode(in);
                ClaimRules.check(name, mode, state.principal());
                yield now(r -> state.claimed(m.claim(name, mode)));
            }
            case RELEASE_CLAIM -> {
                String name = readString(in);
                ClaimMode mode = Values.readClaimMode(in);
                yield now(r -> r.body().writeInt(state.release(name, mode)));
            }
            case CLAIM_HOLDERS -> {
                String name = readString(in);
                yield now(r -> r.body().writeInt(m.claimHolders(name)));
            }
            case DELETE_GROUP_UNLESS_CLAIMED -> {
                String queue = readString(in);
                String group = readString(in);
                String claim = readString(in);
                yield now(r -> Fields.writeBool(r.body(), m.deleteGroupUnlessClaimed(queue, group, claim)));
            }
            default -> throw new IllegalArgumentException(op + " is not a request on the store");
        };
    }

    /** getOrCreate creates a missing queue: that takes the manage permission; using an existing one does not. */
    private static void mayCreate(ConnectionState state, QueueKind kind, String name) {
        Principal who = state.principal();
        if (!who.may(Permission.MANAGE, name) && !state.mikyu().list(kind).contains(name)) {
            throw new AccessDeniedException("user '" + who.name() + "' lacks the manage permission needed to"
                    + " create queue '" + name + "'");
        }
    }
}
