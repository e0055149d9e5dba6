package io.mikyu.engine;

import java.nio.charset.StandardCharsets;

/**
 * A stored record: its offset in the queue, the timestamp it was stored with, key, headers and payload.
 * A {@code null} payload is a tombstone.
 */
public record Record(long offset, long timestamp, byte[] key, Headers headers, byte[] payload) {

    public String keyAsString() {
        return key == null ? null : new String(key, StandardCharsets.UTF_8);
    }

    public String payloadAsString() {
        return payload == null ? null : new String(payload, StandardCharsets.UTF_8);
    }

    public boolean isTombstone() {
        return payload == null;
    }

    /** Size in bytes of key, payload and header values; what byte limits on reads count. */
    public int size() {
        int size = (key == null ? 0 : key.length) + (payload == null ? 0 : payload.length);
        for (Headers.Header h : headers.asList()) {
            size += h.name().length() + (h.value() == null ? 0 : h.value().length);
        }
        return size;
    }

    @Override
    public String toString() {
        return "Record[offset=" + offset + ", timestamp=" + timestamp + ", key=" + keyAsString()
                + ", headers=" + headers + ", payload=" + (payload == null ? "null" : payload.length + " bytes") + "]";
    }
}
