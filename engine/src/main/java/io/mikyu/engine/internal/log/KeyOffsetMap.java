package io.mikyu.engine.internal.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Compaction's key map: from a key to the newest offset seen for it, in memory fixed when it is made. Keys are not
 * kept, only their 128-bit MD5 digest, so a slot is {@value #SLOT_BYTES} bytes whatever the key's length: the
 * digest's two halves and the offset, three {@code long}s of one array allocated once (no object per key; a
 * {@code HashMap} of the same keys costs some 130 bytes a key and grows without bound). Open addressing with linear
 * probing; the map takes at most {@link #LOAD_FACTOR} of its slots, so a lookup stays short.
 *
 * <p>Two keys with the same digest would share a slot, and compaction could then remove a record of one for a
 * newer record of the other. For n distinct keys the chance that any two collide is about n²/2¹²⁹: 10⁻²¹ for a
 * billion keys, far below the chance of an undetected disk error. Making two keys collide on purpose takes a
 * collision attack on MD5 with both keys chosen, so a producer can only make two keys of its own share a slot;
 * aiming at a key someone else wrote would need a second preimage, which is not known for MD5.
 *
 * <p>Not thread-safe: one compaction uses it at a time.
 */
final class KeyOffsetMap {

    /** Bytes of one slot: the digest (16) and the offset (8). */
    static final int SLOT_BYTES = 24;
    /**
     * At most this share of the slots is used: with linear probing a hit then takes about 2.5 probes and a miss
     * about 8.5 (they grow fast above it: 50 misses at 0.9).
     */
    static final double LOAD_FACTOR = 0.75;
    /** The most slots a map has: three longs each must fit in one array. */
    static final int MAX_SLOTS = (Integer.MAX_VALUE - 8) / 3;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** Slot i: {@code [3i]} and {@code [3i+1]} the digest, {@code [3i+2]} the offset plus one (0: a free slot). */
    private final long[] table;
    private final int slots;
    private final int maxKeys;
    private final MessageDigest md5;
    private final byte[] digest = new byte[16];
    private int keys;

    private KeyOffsetMap(int slots) {
        this.slots = slots;
        this.table = new long[slots * 3];
        this.maxKeys = Math.max(1, (int) (slots * LOAD_FACTOR));
        try {
            this.md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
    }

    /**
     * A map of at most {@code maxBytes} bytes, no larger than {@code expectedKeys} keys need (a log with few records
     * does not get the whole budget).
     */
    static KeyOffsetMap withAtMost(long maxBytes, long expectedKeys) {
        long budget = Math.max(2, Math.min(maxBytes / SLOT_BYTES, MAX_SLOTS));
        long needed = (long) Math.ceil(Math.max(1, expectedKeys) / LOAD_FACTOR) + 1;
        return new KeyOffsetMap((int) Math.min(budget, needed));
    }

    /** How many distinct keys the map takes before {@link #put} refuses a new one. */
    int maxKeys() {
        return maxKeys;
    }

    /** Distinct keys in the map. */
    int size() {
        return keys;
    }

    /** Bytes of the table. */
    long bytes() {
        return (long) slots * SLOT_BYTES;
    }

    /**
     * Records {@code offset} as the newest of {@code key} (offsets are put in increasing order). Returns false,
     * changing nothing, when the key is new and the map already holds {@link #maxKeys()} keys.
     */
    boolean put(byte[] key, long offset) {
        hash(key);
        long hi = (long) LONGS.get(digest, 0);
        long lo = (long) LONGS.get(digest, 8);
        int i = home(hi);
        while (true) {
            int at = i * 3;
            long stored = table[at + 2];
            if (stored == 0) {
                if (keys >= maxKeys) {
                    return false;
                }
                table[at] = hi;
                table[at + 1] = lo;
                table[at + 2] = offset + 1;
                keys++;
                return true;
            }
            if (table[at] == hi && table[at + 1] == lo) {
                table[at + 2] = offset + 1;
                return true;
            }
            i = i + 1 == slots ? 0 : i + 1;
        }
    }

    /** The newest offset put for {@code key}, or -1 if it is not in the map. */
    long get(byte[] key) {
        hash(key);
        long hi = (long) LONGS.get(digest, 0);
        long lo = (long) LONGS.get(digest, 8);
        int i = home(hi);
        while (true) {
            int at = i * 3;
            long stored = table[at + 2];
            if (stored == 0) {
                return -1;
            }
            if (table[at] == hi && table[at + 1] == lo) {
                return stored - 1;
            }
            i = i + 1 == slots ? 0 : i + 1;
        }
    }

    /** Empties the map for the next pass, keeping its memory. */
    void clear() {
        Arrays.fill(table, 0L);
        keys = 0;
    }

    private int home(long hi) {
        return (int) Long.remainderUnsigned(hi, slots);
    }

    private void hash(byte[] key) {
        md5.update(key);
        try {
            md5.digest(digest, 0, digest.length);
        } catch (DigestException e) {
            throw new IllegalStateException(e); // cannot happen: the buffer holds an MD5 digest
        }
    }
}
