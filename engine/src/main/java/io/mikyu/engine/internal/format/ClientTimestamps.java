package io.mikyu.engine.internal.format;

import io.mikyu.engine.ClientClockWindow;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Bounds the timestamps of a data batch encoded by a client (of a broker) to the store's own clock. Retention by
 * age and seeks by time read record timestamps, and a client's clock may be far off: hours behind, its records
 * would be deleted hours early; ahead, never. A record whose timestamp lies within {@link ClientClockWindow#MILLIS} of the
 * store's wall clock keeps it; any other gets the store's time of the append. The batch's maximum timestamp and
 * checksum follow. A batch within the window (any client with a synchronised clock) is only read.
 */
public final class ClientTimestamps {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private ClientTimestamps() {
    }

    /**
     * Restamps, in place, the records of {@code batch} (already validated: {@link BatchValidator}) whose
     * timestamps lie outside {@code nowMillis ± ClientClockWindow.MILLIS} with {@code nowMillis}. Returns how many it changed;
     * if any, the batch's bytes changed (maximum timestamp and checksum included).
     */
    public static int bound(byte[] batch, long nowMillis) {
        int count = (int) INT.get(batch, BatchDescriptor.RECORD_COUNT_OFFSET);
        int changed = 0;
        long max = Long.MIN_VALUE;
        int p = BatchDescriptor.HEADER_LENGTH;
        for (int i = 0; i < count; i++) {
            int at = p + RecordDescriptor.TIMESTAMP_OFFSET;
            long ts = (long) LONG.get(batch, at);
            if (!ClientClockWindow.contains(ts, nowMillis)) {
                ts = nowMillis;
                LONG.set(batch, at, ts);
                changed++;
            }
            max = Math.max(max, ts);
            p += 4 + (int) INT.get(batch, p + RecordDescriptor.LENGTH_OFFSET);
        }
        if (changed > 0) {
            LONG.set(batch, BatchDescriptor.MAX_TIMESTAMP_OFFSET, max);
            CRC32C crc = new CRC32C();
            crc.update(batch, BatchDescriptor.CRC_START, batch.length - BatchDescriptor.CRC_START);
            INT.set(batch, BatchDescriptor.CRC_OFFSET, (int) crc.getValue());
        }
        return changed;
    }
}
