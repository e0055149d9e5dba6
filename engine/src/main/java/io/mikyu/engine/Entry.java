package io.mikyu.engine;

import java.nio.charset.StandardCharsets;

/**
 * What a producer appends: an optional key, headers, a payload and a timestamp.
 *
 * <p>A {@code null} payload with a key is a <em>tombstone</em>: compaction removes earlier records of that key.
 * A timestamp of {@link #NO_TIMESTAMP} is replaced by the append time.
 * Arrays are not copied; do not change them after appending.
 */
public record Entry(byte[] key, Headers headers, byte[] payload, long timestamp) {

    public static final long NO_TIMESTAMP = -1L;

    public Entry {
        headers = headers == null ? Headers.EMPTY : headers;
        if (payload == null && key == null) {
            throw new IllegalArgumentException("an entry needs a payload, or a key for a tombstone");
        }
    }

    public static Entry of(byte[] payload) {
        return new Entry(null, Headers.EMPTY, payload, NO_TIMESTAMP);
    }

    public static Entry of(String payload) {
        return of(payload.getBytes(StandardCharsets.UTF_8));
    }

    public static Entry keyed(String key, String payload) {
        return new Entry(key.getBytes(StandardCharsets.UTF_8), Headers.EMPTY,
                payload == null ? null : payload.getBytes(StandardCharsets.UTF_8), NO_TIMESTAMP);
    }

    public static Entry tombstone(String key) {
        return new Entry(key.getBytes(StandardCharsets.UTF_8), Headers.EMPTY, null, NO_TIMESTAMP);
    }

    public Entry withHeaders(Headers newHeaders) {
        return new Entry(key, newHeaders, payload, timestamp);
    }

    public Entry withTimestamp(long newTimestamp) {
        return new Entry(key, headers, payload, newTimestamp);
    }

    public boolean isTombstone() {
        return payload == null;
    }
}
