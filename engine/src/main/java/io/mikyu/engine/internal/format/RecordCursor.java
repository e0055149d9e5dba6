package io.mikyu.engine.internal.format;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.Headers;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordHandler;
import io.mikyu.engine.RecordView;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Walks the records of checked batches and shows each to a {@link RecordHandler} as a {@link RecordView} over the
 * batch's own bytes: no copy, and no allocation per record (one cursor per read call, two buffer views per batch).
 */
public final class RecordCursor implements RecordView {

    private ByteBuffer keyView;
    private ByteBuffer payloadView;
    private ByteBuffer batch;
    private Path file;
    private long filePositionBase;
    private int recordEnd;
    private long offset;
    private long timestamp;
    private int keyPos;
    private int keyLength;
    private int payloadPos;
    private int payloadLength;
    private int headerCount;

    /**
     * Shows the records of the batch at {@code pos} with offsets at or above {@code minOffset} to {@code handler},
     * at most {@code max} of them. Returns the offset to continue from, as {@link BatchReader#decode} does; the
     * number handled is {@link #handled()}'s increase.
     */
    public long visit(ByteBuffer buf, int pos, long minOffset, int max, RecordHandler handler, Path file,
                      long filePositionBase) {
        this.batch = buf;
        this.file = file;
        this.filePositionBase = filePositionBase;
        this.keyView = buf.asReadOnlyBuffer().order(java.nio.ByteOrder.BIG_ENDIAN);
        this.payloadView = buf.asReadOnlyBuffer().order(java.nio.ByteOrder.BIG_ENDIAN);
        long base = BatchDescriptor.baseOffset(buf, pos);
        int count = BatchDescriptor.recordCount(buf, pos);
        int end = pos + BatchDescriptor.LOG_OVERHEAD + BatchDescriptor.length(buf, pos);
        int p = pos + BatchDescriptor.HEADER_LENGTH;
        int done = 0;
        for (int i = 0; i < count; i++) {
            if (p + RecordDescriptor.HEADER_LENGTH > end) {
                throw new CorruptionException(file, filePositionBase + p, "record header runs past its batch");
            }
            int recLength = buf.getInt(p + RecordDescriptor.LENGTH_OFFSET);
            int recEnd = p + 4 + recLength;
            if (recLength < RecordDescriptor.HEADER_LENGTH - 4 || recEnd > end || recEnd < p) {
                throw new CorruptionException(file, filePositionBase + p, "record length " + recLength
                        + " runs past its batch");
            }
            long off = base + buf.getInt(p + RecordDescriptor.OFFSET_DELTA_OFFSET);
            if (off >= minOffset) {
                if (done >= max) {
                    return off;
                }
                position(p, recEnd, off);
                handler.onRecord(this);
                done++;
                handled++;
            }
            p = recEnd;
        }
        return Math.max(minOffset, base + BatchDescriptor.lastOffsetDelta(buf, pos) + 1);
    }

    private long handled;

    /** Records shown so far by this cursor. */
    public long handled() {
        return handled;
    }

    private void position(int p, int recEnd, long off) {
        recordEnd = recEnd;
        offset = off;
        timestamp = batch.getLong(p + RecordDescriptor.TIMESTAMP_OFFSET);
        keyLength = batch.getInt(p + RecordDescriptor.KEY_LENGTH_OFFSET);
        payloadLength = batch.getInt(p + RecordDescriptor.VALUE_LENGTH_OFFSET);
        headerCount = batch.getInt(p + RecordDescriptor.HEADER_COUNT_OFFSET);
        keyPos = p + RecordDescriptor.HEADER_LENGTH;
        payloadPos = keyPos + Math.max(keyLength, 0);
        if (keyLength < -1 || payloadLength < -1 || headerCount < 0
                || (long) payloadPos + Math.max(payloadLength, 0) > recEnd) {
            throw new CorruptionException(file, filePositionBase + p, "record fields run past the record");
        }
    }

    @Override
    public long offset() {
        return offset;
    }

    @Override
    public long timestamp() {
        return timestamp;
    }

    @Override
    public ByteBuffer key() {
        if (keyLength < 0) {
            return null;
        }
        keyView.limit(keyPos + keyLength).position(keyPos);
        return keyView;
    }

    @Override
    public ByteBuffer payload() {
        if (payloadLength < 0) {
            return null;
        }
        payloadView.limit(payloadPos + payloadLength).position(payloadPos);
        return payloadView;
    }

    @Override
    public Headers headers() {
        if (headerCount == 0) {
            return Headers.EMPTY;
        }
        Headers.Builder hb = Headers.builder();
        int q = payloadPos + Math.max(payloadLength, 0);
        for (int h = 0; h < headerCount; h++) {
            int nameLength = batch.getShort(q) & 0xFFFF;
            q += 2;
            byte[] name = new byte[nameLength];
            batch.get(q, name);
            q += nameLength;
            int vl = batch.getInt(q);
            q += 4;
            byte[] v = null;
            if (vl >= 0) {
                if (q + vl > recordEnd) {
                    throw new CorruptionException(file, filePositionBase + q, "header value runs past the record");
                }
                v = new byte[vl];
                batch.get(q, v);
                q += vl;
            }
            hb.add(new String(name, StandardCharsets.UTF_8), v);
        }
        return hb.build();
    }

    @Override
    public Record toRecord() {
        byte[] key = null;
        if (keyLength >= 0) {
            key = new byte[keyLength];
            batch.get(keyPos, key);
        }
        byte[] value = null;
        if (payloadLength >= 0) {
            value = new byte[payloadLength];
            batch.get(payloadPos, value);
        }
        return new Record(offset, timestamp, key, headers(), value);
    }
}
