package io.mikyu.protocol;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Task;
import io.mikyu.engine.Transaction;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;

import static io.mikyu.protocol.Fields.readLong;
import static io.mikyu.protocol.Fields.readMillis;
import static io.mikyu.protocol.Fields.readRequiredString;
import static io.mikyu.protocol.Fields.readString;
import static io.mikyu.protocol.Fields.writeMillis;
import static io.mikyu.protocol.Fields.writeString;

/**
 * One operation of a {@link Transaction}, as the client collects it and sends it, with the others, in a
 * {@link Op#TX_COMMIT} or {@link Op#TX_PREPARE}: {@code kind:u8} and the operation's arguments.
 */
public sealed interface TransactionOp {

    /** Adds this operation to an engine transaction (on the broker). */
    void addTo(Transaction tx);

    /** The queue it writes to or settles on. */
    String queue();

    /** Whether it writes (an append or enqueue: the produce permission) rather than settles (consume). */
    default boolean produces() {
        return this instanceof Append || this instanceof Enqueue;
    }

    void write(ByteBuf buf);

    /** 1: {@code queue:string entry} */
    record Append(String queue, Entry entry) implements TransactionOp {
        public void addTo(Transaction tx) {
            tx.append(queue, entry);
        }

        public void write(ByteBuf buf) {
            buf.writeByte(1);
            writeString(buf, queue);
            Values.writeEntry(buf, entry);
        }
    }

    /** 2: {@code queue:string task} */
    record Enqueue(String queue, Task task) implements TransactionOp {
        public void addTo(Transaction tx) {
            tx.enqueue(queue, task);
        }

        public void write(ByteBuf buf) {
            buf.writeByte(2);
            writeString(buf, queue);
            Values.writeTask(buf, task);
        }
    }

    /** 3 (ack) or 4 (nack): {@code queue:string token} and for a nack {@code delay:millis reason:string}. */
    record Settle(String queue, LeaseToken token, boolean nack, Duration delay, String reason)
            implements TransactionOp {
        public void addTo(Transaction tx) {
            if (nack) {
                tx.nack(queue, token, delay, reason);
            } else {
                tx.ack(queue, token);
            }
        }

        public void write(ByteBuf buf) {
            buf.writeByte(nack ? 4 : 3);
            writeString(buf, queue);
            Values.writeToken(buf, token);
            if (nack) {
                writeMillis(buf, delay);
                writeString(buf, reason);
            }
        }
    }

    /** 5 (ack) or 6 (nack): {@code queue:string group:string token}, for a nack {@code delay:millis reason:string}. */
    record SettleShared(String queue, String group, LeaseToken token, boolean nack, Duration delay, String reason)
            implements TransactionOp {
        public void addTo(Transaction tx) {
            if (nack) {
                tx.nackShared(queue, group, token, delay, reason);
            } else {
                tx.ackShared(queue, group, token);
            }
        }

        public void write(ByteBuf buf) {
            buf.writeByte(nack ? 6 : 5);
            writeString(buf, queue);
            writeString(buf, group);
            Values.writeToken(buf, token);
            if (nack) {
                writeMillis(buf, delay);
                writeString(buf, reason);
            }
        }
    }

    /** 7: {@code queue:string group:string nextOffset:i64} */
    record CommitOffset(String queue, String group, long nextOffset) implements TransactionOp {
        public void addTo(Transaction tx) {
            tx.commitOffset(queue, group, nextOffset);
        }

        public void write(ByteBuf buf) {
            buf.writeByte(7);
            writeString(buf, queue);
            writeString(buf, group);
            buf.writeLong(nextOffset);
        }
    }

    static void writeAll(ByteBuf buf, List<TransactionOp> ops) {
        Values.writeList(buf, ops, (b, op) -> op.write(b));
    }

    static List<TransactionOp> readAll(ByteBuf buf) {
        return Values.readList(buf, 1 + 4 + 16, TransactionOp::read);
    }

    static TransactionOp read(ByteBuf buf) {
        int kind = Fields.readU8(buf);
        String queue = readRequiredString(buf, "queue name");
        return switch (kind) {
            case 1 -> new Append(queue, Values.readEntry(buf));
            case 2 -> new Enqueue(queue, Values.readTask(buf));
            case 3 -> new Settle(queue, Values.readToken(buf), false, null, null);
            case 4 -> new Settle(queue, Values.readToken(buf), true, readMillis(buf), readString(buf));
            case 5 -> new SettleShared(queue, readRequiredString(buf, "group name"), Values.readToken(buf), false,
                    null, null);
            case 6 -> new SettleShared(queue, readRequiredString(buf, "group name"), Values.readToken(buf), true,
                    readMillis(buf), readString(buf));
            case 7 -> new CommitOffset(queue, readRequiredString(buf, "group name"), readLong(buf));
            default -> throw new MalformedFrameException("unknown transaction operation " + kind);
        };
    }
}
