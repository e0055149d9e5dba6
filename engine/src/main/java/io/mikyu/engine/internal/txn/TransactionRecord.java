package io.mikyu.engine.internal.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Task;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A record of the transaction log ({@code <data>/txn/}), stored as the value of a record in a
 * {@code TYPE_TRANSACTION} batch. Big-endian fields via {@link DataOutputStream}:
 *
 * <pre>
 *   kind u8 (PREPARE 1, COMMIT 2, ROLLBACK 3, APPLIED 4; | 0x40 if an owner follows the xid) | txId i64
 *   | xid: len i32 (-1 none) + bytes | [owner: len i32 + UTF-8 bytes]
 *   | scanFrom: count i32, { target UTF, offset i64 }*      where each target log ended when the record was written
 *   | ops: count i32, { op u8, fields... }*
 * </pre>
 *
 * COMMIT and PREPARE carry the operations; a COMMIT that follows a PREPARE of the same txId carries none (the
 * PREPARE holds them). ROLLBACK and APPLIED carry none. Only a PREPARE with an owner (the user who prepared it)
 * sets the owner flag; every other record is written exactly as before the owner existed, and records without
 * the flag read as having no owner. The batch CRC protects the whole record; the batch's timestamp is when the
 * record was written. Targets are {@link TxTarget} names, read in any store format's spelling and handed on in the
 * current one.
 */
record TransactionRecord(byte kind, long txId, byte[] xid, String owner, Map<String, Long> scanFrom,
                         List<TxOp> ops) {

    static final byte PREPARE = 1;
    static final byte COMMIT = 2;
    static final byte ROLLBACK = 3;
    static final byte APPLIED = 4;
    /** Set in the kind byte when an owner follows the xid. */
    private static final int OWNER_FLAG = 0x40;

    /** Phase one: every operation, the xid and its owner. */
    static TransactionRecord prepare(long txId, byte[] xid, String owner, Map<String, Long> scanFrom,
                                     List<TxOp> ops) {
        return new TransactionRecord(PREPARE, txId, xid, owner, scanFrom, ops);
    }

    private static final byte OP_APPEND = 1;
    private static final byte OP_ENQUEUE = 2;
    private static final byte OP_SETTLE = 3;
    private static final byte OP_SETTLE_SHARED = 4;
    private static final byte OP_COMMIT_OFFSET = 5;
    private static final byte OP_DEAD_LETTER = 6;

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(owner == null ? kind : kind | OWNER_FLAG);
            out.writeLong(txId);
            writeBytes(out, xid);
            if (owner != null) {
                writeBytes(out, owner.getBytes(StandardCharsets.UTF_8));
            }
            out.writeInt(scanFrom.size());
            for (Map.Entry<String, Long> e : scanFrom.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
            out.writeInt(ops.size());
            for (TxOp op : ops) {
                writeOp(out, op);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static TransactionRecord decode(byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int kindAndFlags = in.readUnsignedByte();
            byte kind = (byte) (kindAndFlags & ~OWNER_FLAG);
            long txId = in.readLong();
            byte[] xid = readBytes(in);
            String owner = null;
            if ((kindAndFlags & OWNER_FLAG) != 0) {
                byte[] name = readBytes(in);
                if (name == null) {
                    throw new IOException("owner flag set without an owner");
                }
                owner = new String(name, StandardCharsets.UTF_8);
            }
            int n = in.readInt();
            Map<String, Long> scanFrom = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                scanFrom.put(TxTarget.current(in.readUTF()), in.readLong());
            }
            int count = in.readInt();
            List<TxOp> ops = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                ops.add(readOp(in));
            }
            return new TransactionRecord(kind, txId, xid, owner, scanFrom, ops);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed transaction record: " + e, e);
        }
    }

    private static void writeOp(DataOutputStream out, TxOp op) throws IOException {
        if (op instanceof TxOp.Append a) {
            out.writeByte(OP_APPEND);
            out.writeUTF(a.logQueue());
            writeBytes(out, a.entry().key());
            writeHeaders(out, a.entry().headers());
            writeBytes(out, a.entry().payload());
            out.writeLong(a.entry().timestamp());
        } else if (op instanceof TxOp.Enqueue e) {
            out.writeByte(OP_ENQUEUE);
            out.writeUTF(e.taskQueue());
            writeBytes(out, e.task().payload());
            writeHeaders(out, e.task().headers());
            out.writeByte(e.task().priority());
            out.writeLong(e.task().deliverAt());
            out.writeLong(e.task().expiresAt());
        } else if (op instanceof TxOp.Settle s) {
            out.writeByte(OP_SETTLE);
            out.writeUTF(s.taskQueue());
            writeSettle(out, s.token(), s.nack(), s.delayMillis(), s.reason());
        } else if (op instanceof TxOp.SettleShared s) {
            out.writeByte(OP_SETTLE_SHARED);
            out.writeUTF(s.logQueue());
            out.writeUTF(s.group());
            writeSettle(out, s.token(), s.nack(), s.delayMillis(), s.reason());
        } else if (op instanceof TxOp.DeadLetter d) {
            out.writeByte(OP_DEAD_LETTER);
            out.writeUTF(d.target());
            out.writeLong(d.id());
            out.writeLong(d.lease());
            out.writeInt(d.attempts());
            out.writeBoolean(d.reason() != null);
            if (d.reason() != null) {
                out.writeUTF(d.reason());
            }
        } else if (op instanceof TxOp.CommitOffset c) {
            out.writeByte(OP_COMMIT_OFFSET);
            out.writeUTF(c.logQueue());
            out.writeUTF(c.group());
            out.writeLong(c.offset());
        } else {
            throw new IllegalArgumentException("unknown transaction operation " + op);
        }
    }

    private static TxOp readOp(DataInputStream in) throws IOException {
        byte op = in.readByte();
        switch (op) {
            case OP_APPEND -> {
                String q = in.readUTF();
                byte[] key = readBytes(in);
                Headers headers = readHeaders(in);
                byte[] payload = readBytes(in);
                return new TxOp.Append(q, new Entry(key, headers, payload, in.readLong()));
            }
            case OP_ENQUEUE -> {
                String q = in.readUTF();
                byte[] payload = readBytes(in);
                Headers headers = readHeaders(in);
                return new TxOp.Enqueue(q, new Task(payload, headers, in.readByte(), in.readLong(), in.readLong()));
            }
            case OP_SETTLE -> {
                String q = in.readUTF();
                LeaseToken token = new LeaseToken(in.readLong(), in.readLong());
                boolean nack = in.readBoolean();
                long delay = in.readLong();
                return new TxOp.Settle(q, token, nack, delay, readString(in));
            }
            case OP_SETTLE_SHARED -> {
                String q = in.readUTF();
                String g = in.readUTF();
                LeaseToken token = new LeaseToken(in.readLong(), in.readLong());
                boolean nack = in.readBoolean();
                long delay = in.readLong();
                return new TxOp.SettleShared(q, g, token, nack, delay, readString(in));
            }
            case OP_COMMIT_OFFSET -> {
                return new TxOp.CommitOffset(in.readUTF(), in.readUTF(), in.readLong());
            }
            case OP_DEAD_LETTER -> {
                return new TxOp.DeadLetter(TxTarget.current(in.readUTF()), in.readLong(), in.readLong(), in.readInt(),
                        readString(in));
            }
            default -> throw new IOException("unknown operation " + op);
        }
    }

    private static void writeSettle(DataOutputStream out, LeaseToken token, boolean nack, long delay, String reason)
            throws IOException {
        out.writeLong(token.taskId());
        out.writeLong(token.lease());
        out.writeBoolean(nack);
        out.writeLong(delay);
        out.writeBoolean(reason != null);
        if (reason != null) {
            out.writeUTF(reason);
        }
    }

    private static String readString(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    private static void writeHeaders(DataOutputStream out, Headers headers) throws IOException {
        out.writeInt(headers.size());
        for (Headers.Header h : headers.asList()) {
            out.writeUTF(h.name());
            writeBytes(out, h.value());
        }
    }

    private static Headers readHeaders(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n == 0) {
            return Headers.EMPTY;
        }
        Headers.Builder b = Headers.builder();
        for (int i = 0; i < n; i++) {
            b.add(in.readUTF(), readBytes(in));
        }
        return b.build();
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        if (b == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(b.length);
            out.write(b);
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
