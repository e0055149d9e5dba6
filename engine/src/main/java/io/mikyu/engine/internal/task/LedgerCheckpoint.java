package io.mikyu.engine.internal.task;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A task queue's memory state in ids, as of its log up to {@link #end} ({@code ledger.ckpt}): what reopening
 * restores instead of replaying the log from its start. Replaying from {@link #replayFrom} on (task records below
 * {@link #joinedEnd} excepted: they are in it already) then gives the state a full replay would.
 *
 * <pre>
 *   magic "MKLC" | version int32 | body length int32 | body | crc32c of the body int32
 *   body: replayFrom, joinedEnd, end, lastLease (int64 each)
 *         10 x (coldFrom, coldCount, coldLast int64) | aheadCount int32 | ahead ids int64...
 *         heldCount int32 | held tasks in id order: id int64, state int8, flags int8, attempts int32,
 *                           visibleAt, lease, leaseUntil int64 (steady millis) | reasonLength int32 (-1: none) | UTF-8
 * </pre>
 * Big-endian, as {@link DataOutputStream} writes. Anything that does not parse whole (magic, version, lengths,
 * CRC) is no checkpoint at all.
 */
record LedgerCheckpoint(long replayFrom, long joinedEnd, long end, long lastLease, long[] coldFrom, long[] coldCount,
                        long[] coldLast, long[] ahead, Held[] held) {

    static final String FILE_NAME = "ledger.ckpt";
    private static final int MAGIC = 0x4D4B4C43; // "MKLC"
    private static final int VERSION = 1;
    private static final byte FLAG_LEASE_RAN_OUT = 1;

    /** One held task: its state in memory (its priority, times and headers are in its record). */
    record Held(long id, TaskEntry.State state, int attempts, long visibleAt, long lease, long leaseUntil,
                boolean leaseRanOut, String lastReason) {
    }

    /** Total cold tasks. */
    long coldTotal() {
        return Arrays.stream(coldCount).sum();
    }

    /** The lowest id the checkpoint names (a held task, a cold run's start or an id ahead), or {@code end}. */
    long lowestId() {
        long min = end;
        for (Held h : held) {
            min = Math.min(min, h.id());
        }
        for (int p = 0; p < coldFrom.length; p++) {
            if (coldCount[p] > 0) {
                min = Math.min(min, coldFrom[p]);
            }
        }
        for (long id : ahead) {
            min = Math.min(min, id);
        }
        return min;
    }

    byte[] encode() {
        ByteArrayOutputStream body = new ByteArrayOutputStream(64 + held.length * 48);
        try (DataOutputStream out = new DataOutputStream(body)) {
            out.writeLong(replayFrom);
            out.writeLong(joinedEnd);
            out.writeLong(end);
            out.writeLong(lastLease);
            for (int p = 0; p < ColdBacklog.LEVELS; p++) {
                out.writeLong(coldFrom[p]);
                out.writeLong(coldCount[p]);
                out.writeLong(coldLast[p]);
            }
            out.writeInt(ahead.length);
            for (long id : ahead) {
                out.writeLong(id);
            }
            out.writeInt(held.length);
            for (Held h : held) {
                out.writeLong(h.id());
                out.writeByte(h.state().ordinal());
                out.writeByte(h.leaseRanOut() ? FLAG_LEASE_RAN_OUT : 0);
                out.writeInt(h.attempts());
                out.writeLong(h.visibleAt());
                out.writeLong(h.lease());
                out.writeLong(h.leaseUntil());
                if (h.lastReason() == null) {
                    out.writeInt(-1);
                } else {
                    byte[] reason = h.lastReason().getBytes(StandardCharsets.UTF_8);
                    out.writeInt(reason.length);
                    out.write(reason);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: cannot happen
        }
        byte[] b = body.toByteArray();
        CRC32C crc = new CRC32C();
        crc.update(b);
        return ByteBuffer.allocate(16 + b.length).putInt(MAGIC).putInt(VERSION).putInt(b.length).put(b)
                .putInt((int) crc.getValue()).array();
    }

    /** The checkpoint in {@code bytes}; {@link IllegalArgumentException} saying why if they are not one, whole. */
    static LedgerCheckpoint decode(byte[] bytes) {
        if (bytes.length < 16) {
            throw new IllegalArgumentException("too short (" + bytes.length + " bytes)");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.getInt() != MAGIC) {
            throw new IllegalArgumentException("bad magic");
        }
        int version = b.getInt();
        if (version != VERSION) {
            throw new IllegalArgumentException("unknown version " + version);
        }
        int length = b.getInt();
        if (length < 0 || length != bytes.length - 16) {
            throw new IllegalArgumentException("body length " + length + " in a file of " + bytes.length + " bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 12, length);
        if ((int) crc.getValue() != ByteBuffer.wrap(bytes, 12 + length, 4).getInt()) {
            throw new IllegalArgumentException("bad checksum");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 12, length))) {
            long replayFrom = in.readLong();
            long joinedEnd = in.readLong();
            long end = in.readLong();
            long lastLease = in.readLong();
            long[] from = new long[ColdBacklog.LEVELS];
            long[] count = new long[ColdBacklog.LEVELS];
            long[] last = new long[ColdBacklog.LEVELS];
            for (int p = 0; p < ColdBacklog.LEVELS; p++) {
                from[p] = in.readLong();
                count[p] = in.readLong();
                last[p] = in.readLong();
            }
            long[] ahead = new long[checkedCount(in.readInt(), length)];
            for (int i = 0; i < ahead.length; i++) {
                ahead[i] = in.readLong();
            }
            Held[] held = new Held[checkedCount(in.readInt(), length)];
            TaskEntry.State[] states = TaskEntry.State.values();
            for (int i = 0; i < held.length; i++) {
                long id = in.readLong();
                int state = in.readByte();
                if (state < 0 || state >= states.length) {
                    throw new IllegalArgumentException("task " + id + " has an unknown state " + state);
                }
                byte flags = in.readByte();
                int attempts = in.readInt();
                long visibleAt = in.readLong();
                long lease = in.readLong();
                long leaseUntil = in.readLong();
                int reasonLength = in.readInt();
                String reason = null;
                if (reasonLength >= 0) {
                    byte[] r = new byte[checkedCount(reasonLength, length)];
                    in.readFully(r);
                    reason = new String(r, StandardCharsets.UTF_8);
                }
                held[i] = new Held(id, states[state], attempts, visibleAt, lease, leaseUntil,
                        (flags & FLAG_LEASE_RAN_OUT) != 0, reason);
            }
            if (in.available() != 0) {
                throw new IllegalArgumentException(in.available() + " bytes after the last task");
            }
            if (replayFrom < 0 || replayFrom > end || joinedEnd > end) {
                throw new IllegalArgumentException("offsets out of order: replay from " + replayFrom + ", joined to "
                        + joinedEnd + ", end " + end);
            }
            return new LedgerCheckpoint(replayFrom, joinedEnd, end, lastLease, from, count, last, ahead, held);
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated body", e);
        }
    }

    /** A count read from the file, no larger than the body could hold. */
    private static int checkedCount(int n, int bodyLength) {
        if (n < 0 || n > bodyLength) {
            throw new IllegalArgumentException("count " + n + " in a body of " + bodyLength + " bytes");
        }
        return n;
    }
}
