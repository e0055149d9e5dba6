package io.mikyu.engine.internal.format;

import io.mikyu.engine.CorruptionException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The first 16 bytes of every binary file mikyu writes: an 8-byte ASCII magic naming the file type, a format
 * version, and 4 reserved bytes. A reader checks both before trusting anything else in the file.
 *
 * <pre>
 *   0                          8               12              16
 *   +--------------------------+---------------+---------------+
 *   | magic, 8 ASCII bytes     | version int32 | reserved i32  |
 *   +--------------------------+---------------+---------------+
 * </pre>
 */
public enum FileHeader {
    SEGMENT("MIKYUSEG", 1),
    INDEX("MIKYUIDX", 1),
    OFFSETS("MIKYUOFS", 1),
    STORE_ID("MIKYUSID", 1),
    BODY("MIKYUBDY", 1);

    public static final int LENGTH = 16;

    private final byte[] magic;
    private final int version;

    FileHeader(String magic, int version) {
        this.magic = magic.getBytes(StandardCharsets.US_ASCII);
        this.version = version;
    }

    private String label() {
        return name().toLowerCase().replace('_', ' ');
    }

    public int version() {
        return version;
    }

    public void write(ByteBuffer buf) {
        ByteBuffer b = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        b.put(magic).putInt(version).putInt(0);
        buf.position(buf.position() + LENGTH);
    }

    /**
     * {@code true} if the buffer starts with this file type's magic but another format version: a file from a
     * newer (or older) mikyu, which must be refused, never treated as damage.
     */
    public boolean isOtherVersion(ByteBuffer buf) {
        if (buf.remaining() < LENGTH) {
            return false;
        }
        int p = buf.position();
        for (int i = 0; i < magic.length; i++) {
            if (buf.get(p + i) != magic[i]) {
                return false;
            }
        }
        return buf.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(p + 8) != version;
    }

    /** Checks magic and version at the buffer's position; throws naming the file otherwise. */
    public void check(ByteBuffer buf, Path file) {
        if (buf.remaining() < LENGTH) {
            throw new CorruptionException(file, 0, "file too short for its " + LENGTH + "-byte header ("
                    + buf.remaining() + " bytes)");
        }
        int p = buf.position();
        for (int i = 0; i < magic.length; i++) {
            if (buf.get(p + i) != magic[i]) {
                throw new CorruptionException(file, i, "not a " + label() + " file (bad magic)");
            }
        }
        int found = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(p + 8);
        if (found != version) {
            throw new CorruptionException(file, 8, "unsupported " + label() + " format version "
                    + found + " (this mikyu reads version " + version + ")");
        }
    }
}
