package io.mikyu.broker.server;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.Record;
import io.mikyu.engine.spi.AsyncWrites;
import io.mikyu.engine.EncodedBatch;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;

import static io.mikyu.broker.server.Request.now;
import static io.mikyu.broker.server.Request.waiting;
import static io.mikyu.protocol.Fields.readInt;
import static io.mikyu.protocol.Fields.readLong;
import static io.mikyu.protocol.Fields.readMillis;
import static io.mikyu.protocol.Fields.readString;

/** Requests on a log queue and its consumer groups: appends, reads, polls, offsets, retention. */
final class LogRequests {

    /**
     * Encoded appends up to this size start on the event loop (see APPEND_ENCODED): checking a batch there costs
     * less than the two thread hand-offs of a worker (measured: a 64 KiB batch takes a third less broker CPU per
     * byte), and the writer writes it from the received frame without a copy.
     */
    static final int ASYNC_APPEND_MAX_BYTES = 1 << 20;

    /** A tailing reader's poll is answered on the event loop if it is at most this many records behind. */
    static final long INLINE_POLL_MAX_BEHIND = 4096;

    private LogRequests() {
    }

    static Request decode(Op op, ByteBuf in, ConnectionState state) {
        Mikyu m = state.mikyu();
        return switch (op) {
            case APPEND -> {
                String queue = readString(in);
                Durability durability = Values.readDurability(in);
                List<Entry> entries = ClientClock.bound(Values.readEntries(in));
                yield now(r -> r.body().writeLong(m.log(queue).appendBatch(entries, durability)));
            }
            case APPEND_ENCODED -> {
                String queue = readString(in);
                Durability durability = Values.readDurability(in);
                int at = in.readerIndex() + 4;
                EncodedBatch batch = EncodedBatch.wrap(Fields.readRequiredBytes(in, "batch"));
                yield new Request(r -> r.body().writeLong(m.log(queue).appendEncoded(batch, durability)), false,
                        (loop, done) -> batch.size() <= ASYNC_APPEND_MAX_BYTES && m.log(queue) instanceof AsyncWrites a
                                && appendAsync(a, batch, in, at, durability, loop, done));
            }
            case READ_ONE -> {
                String queue = readString(in);
                long offset = readLong(in);
                yield now(r -> {
                    Record record = m.log(queue).read(offset);
                    Fields.writeBool(r.body(), record != null);
                    if (record != null) {
                        Values.writeRecord(r.body(), record);
                    }
                });
            }
            case READ -> {
                String queue = readString(in);
                long from = readLong(in);
                int max = readInt(in);
                long maxBytes = readLong(in);
                yield now(r -> r.list(m.log(queue).read(from, max, Math.min(maxBytes, r.maxResultBytes())),
                        Values::writeRecord));
            }
            case POLL -> {
                String queue = readString(in);
                long from = readLong(in);
                int max = readInt(in);
                long maxBytes = readLong(in);
                Duration wait = readMillis(in);
                yield waiting(wait, r -> r.list(m.log(queue).poll(from, max, Math.min(maxBytes, r.maxResultBytes()),
                        wait), Values::writeRecord));
            }
            case POLL_ENCODED -> {
                String queue = readString(in);
                long from = readLong(in);
                long maxBytes = readLong(in);
                Duration wait = readMillis(in);
                Request poll = waiting(wait, r -> pollEncoded(r, m.log(queue), from, maxBytes, wait));
                yield !poll.waits() ? poll : new Request(poll.call(), true, null, r -> {
                    LogQueue log = m.log(queue);
                    long end = log.endOffset();
                    // Copying a few MiB out of the cache is quick; reading a segment far behind is not for the loop.
                    return from < end && from >= end - INLINE_POLL_MAX_BEHIND
                            && pollEncoded(r, log, from, maxBytes, Duration.ZERO) > 0;
                });
            }
            case START_OFFSET -> {
                String queue = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).startOffset()));
            }
            case END_OFFSET -> {
                String queue = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).endOffset()));
            }
            case OFFSET_FOR_TIMESTAMP -> {
                String queue = readString(in);
                long timestamp = readLong(in);
                yield now(r -> r.body().writeLong(m.log(queue).offsetForTimestamp(timestamp)));
            }
            case GROUPS -> {
                String queue = readString(in);
                yield now(r -> r.list(m.log(queue).groups(), Fields::writeString));
            }
            case DELETE_GROUP -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> Fields.writeBool(r.body(), m.log(queue).deleteGroup(group)));
            }
            case APPLY_RETENTION -> {
                String queue = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).applyRetention()));
            }
            case COMPACT -> {
                String queue = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).compact()));
            }
            case LOG_STATS -> {
                String queue = readString(in);
                yield now(r -> Values.writeQueueStats(r.body(), m.log(queue).stats()));
            }

            case GROUP_OPEN -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> m.log(queue).group(group));
            }
            case GROUP_POSITION -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).group(group).position()));
            }
            case GROUP_HAS_COMMITTED -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> Fields.writeBool(r.body(), m.log(queue).group(group).hasCommitted()));
            }
            case GROUP_COMMIT -> {
                String queue = readString(in);
                String group = readString(in);
                long next = readLong(in);
                yield now(r -> m.log(queue).group(group).commit(next));
            }
            case GROUP_RESET -> {
                String queue = readString(in);
                String group = readString(in);
                OffsetReset reset = Values.readOffsetReset(in);
                yield now(r -> r.body().writeLong(m.log(queue).group(group).reset(reset)));
            }
            case GROUP_POLL -> {
                String queue = readString(in);
                String group = readString(in);
                int max = readInt(in);
                Duration wait = readMillis(in);
                // ConsumerGroup.poll is LogQueue.poll from the group's position; through the queue, to bound its bytes.
                yield waiting(wait, r -> {
                    LogQueue log = m.log(queue);
                    long position = log.group(group).position();
                    r.list(log.poll(position, max, r.maxResultBytes(), wait), Values::writeRecord);
                });
            }
            case GROUP_LAG -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).group(group).lag()));
            }
            default -> throw new IllegalArgumentException(op + " is not a request on a log queue");
        };
    }

    /**
     * Starts an encoded append on the event loop. The batch was copied out of the request frame (the engine keeps
     * that copy in its cache of recent batches); the writer writes the frame's own direct bytes, retained until
     * the append completes, instead of copying the batch into direct memory itself. Runs within the dispatch of
     * {@code frame}, so the frame is still held.
     */
    private static boolean appendAsync(AsyncWrites queue, EncodedBatch batch, ByteBuf frame, int at,
                                       Durability durability, Executor loop, AsyncWrites.Completion done) {
        if (!frame.isDirect() || frame.nioBufferCount() != 1) {
            return queue.tryAppendEncodedAsync(batch, durability, loop, done);
        }
        ByteBuf held = frame.retainedSlice(at, batch.size());
        boolean started = false;
        try {
            started = queue.tryAppendEncodedAsync(EncodedBatch.wrap(batch.bytes(), held.nioBuffer()), durability,
                    loop, new AsyncWrites.Completion() {
                        @Override
                        public void completed(long value) {
                            held.release();
                            done.completed(value);
                        }

                        @Override
                        public void failed(RuntimeException failure) {
                            held.release();
                            done.failed(failure);
                        }
                    });
            return started;
        } finally {
            if (!started) {
                held.release();
            }
        }
    }

    /** POLL_ENCODED's answer; returns the number of items written. */
    private static int pollEncoded(Reply r, LogQueue log, long from, long maxBytes, Duration wait)
            throws InterruptedException {
        Reply.Items items = r.items();
        // Room for a batch in one frame beside the frame header, the count and the item's own header.
        int maxBatch = r.maxFrameBytes() - 64;
        EncodedItems out = new EncodedItems(items);
        log.pollEncoded(from, Math.min(maxBytes, r.maxResultBytes()), maxBatch, wait, out);
        items.end();
        return out.count();
    }
}
