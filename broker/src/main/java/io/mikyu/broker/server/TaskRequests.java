package io.mikyu.broker.server;

import io.mikyu.engine.Durability;
import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.spi.AsyncWrites;
import io.mikyu.engine.spi.TransientWrites;
import io.mikyu.protocol.Fields;
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

/** Requests on a task queue: enqueue, dequeue, ack, nack, leases, browse, purge, counts. */
final class TaskRequests {

    private TaskRequests() {
    }

    /** A transient enqueue that waits for memory only if {@code mayWait}; else it may answer MEMORY_FULL. */
    private static long enqueueTransient(TaskQueue q, List<Task> tasks, boolean mayWait) {
        return mayWait || !(q instanceof TransientWrites t) ? q.enqueueTransient(tasks)
                : t.enqueueTransientUnlessFull(tasks);
    }

    /** Answers a transient enqueue with its first id, unless it would have waited. */
    private static boolean written(Reply r, long first) {
        if (first == TransientWrites.MEMORY_FULL) {
            return false;
        }
        r.body().writeLong(first);
        return true;
    }

    static Request decode(Op op, ByteBuf in, ConnectionState state) {
        Mikyu m = state.mikyu();
        return switch (op) {
            case ENQUEUE -> {
                String queue = readString(in);
                Durability durability = Values.readDurability(in);
                List<Task> tasks = Values.readTasks(in);
                yield new Request(r -> r.body().writeLong(m.taskQueue(queue).enqueueBatch(tasks, durability)), false,
                        (Request.EnqueueCall) (loop, done) -> m.taskQueue(queue) instanceof AsyncWrites a
                                && a.tryEnqueueAsync(tasks, durability, loop, done));
            }
            case ENQUEUE_TRANSIENT -> {
                String queue = readString(in);
                boolean mayWait = Fields.readBool(in);
                List<Task> tasks = Values.readTasks(in);
                // Memory allowing, at once on the event loop; else (waiting for memory, spilling, paced) on a
                // waiting thread, so a blocked producer holds up none of the connection's other requests.
                yield new Request(r -> r.body().writeLong(enqueueTransient(m.taskQueue(queue), tasks, mayWait)), true,
                        null, r -> m.taskQueue(queue) instanceof TransientWrites t
                                && written(r, t.tryEnqueueTransient(tasks)));
            }
            case DEQUEUE -> {
                String queue = readString(in);
                int max = readInt(in);
                Duration lease = readMillis(in);
                Duration wait = readMillis(in);
                FilterExpression filter = Values.readFilter(in);
                yield waiting(wait, r -> {
                    TaskQueue q = m.taskQueue(queue);
                    List<LeasedTask> tasks = q.dequeue(max, lease, wait, state.groupMember.take(state.filter(filter)));
                    int sent = r.listUpTo(tasks, Values::writeLeasedTask, r.maxResultBytes());
                    Requests.giveBackUnsent(tasks.subList(sent, tasks.size()), LeasedTask::token, q::returnUndelivered);
                });
            }
            case TASK_ACK -> {
                String queue = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                yield now(r -> {
                    if (tokens.size() == 1) {
                        m.taskQueue(queue).ack(tokens.get(0));
                    } else {
                        m.taskQueue(queue).ack(tokens);
                    }
                });
            }
            case TASK_ACK_DURABLE -> {
                String queue = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                Durability durability = Values.readDurability(in);
                yield now(r -> m.taskQueue(queue).ack(tokens, durability));
            }
            case TASK_NACK -> {
                String queue = readString(in);
                LeaseToken token = Values.readToken(in);
                Duration delay = readMillis(in);
                String reason = readString(in);
                yield now(r -> m.taskQueue(queue).nack(token, delay, reason));
            }
            case TASK_RETURN_UNDELIVERED -> {
                String queue = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                yield now(r -> m.taskQueue(queue).returnUndelivered(tokens));
            }
            case TASK_EXTEND -> {
                String queue = readString(in);
                LeaseToken token = Values.readToken(in);
                Duration lease = readMillis(in);
                yield now(r -> r.body().writeLong(m.taskQueue(queue).extend(token, lease)));
            }
            case BROWSE -> {
                String queue = readString(in);
                int max = readInt(in);
                FilterExpression filter = Values.readFilter(in);
                yield now(r -> r.list(m.taskQueue(queue).browse(max, state.filter(filter)),
                        Values::writeLeasedTask));
            }
            case PURGE -> {
                String queue = readString(in);
                yield now(r -> r.body().writeLong(m.taskQueue(queue).purge()));
            }
            case TASK_COUNTS -> {
                String queue = readString(in);
                yield now(r -> Values.writeCounts(r.body(), m.taskQueue(queue).counts()));
            }
            case TASK_STATS -> {
                String queue = readString(in);
                yield now(r -> Values.writeQueueStats(r.body(), m.taskQueue(queue).stats()));
            }
            default -> throw new IllegalArgumentException(op + " is not a request on a task queue");
        };
    }
}
