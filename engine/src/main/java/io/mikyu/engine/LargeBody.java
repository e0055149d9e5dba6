package io.mikyu.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A large message body stored beside the queues (see {@link Mikyu#uploadBody()}): its id and length. A task or a
 * log record names it with two headers ({@link #addTo}); the body is kept while an unfinished task or a retained
 * log record names it and deleted after.
 */
public record LargeBody(String id, long length) {

    /** Header naming the body a task refers to (32 lowercase hex digits). */
    public static final String ID_HEADER = "mikyu.body.id";
    /** Header with the body's length in bytes, decimal. */
    public static final String LENGTH_HEADER = "mikyu.body.length";

    public LargeBody {
        Objects.requireNonNull(id, "id");
        if (!isValidId(id)) {
            throw new IllegalArgumentException("not a body id (32 lowercase hex digits): '" + id + "'");
        }
        if (length < 0) {
            throw new IllegalArgumentException("body length must not be negative: " + length);
        }
    }

    /** {@code headers} and this body's two headers (replacing any there). */
    public Headers addTo(Headers headers) {
        List<Headers.Header> all = new ArrayList<>(headers.size() + 2);
        for (Headers.Header h : headers.asList()) {
            if (!h.name().equals(ID_HEADER) && !h.name().equals(LENGTH_HEADER)) {
                all.add(h);
            }
        }
        all.add(new Headers.Header(ID_HEADER, id.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        all.add(new Headers.Header(LENGTH_HEADER,
                Long.toString(length).getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        return Headers.of(all);
    }

    /**
     * The body {@code headers} name, if any.
     *
     * @throws IllegalArgumentException if the headers name a body malformed
     */
    public static Optional<LargeBody> of(Headers headers) {
        String id = headers.getString(ID_HEADER);
        if (id == null) {
            return Optional.empty();
        }
        String length = headers.getString(LENGTH_HEADER);
        if (length == null) {
            throw new IllegalArgumentException("header " + ID_HEADER + " without " + LENGTH_HEADER);
        }
        try {
            return Optional.of(new LargeBody(id, Long.parseLong(length)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("header " + LENGTH_HEADER + " is not a length: '" + length + "'");
        }
    }

    /** Whether {@code id} has the form of a body id. */
    public static boolean isValidId(String id) {
        if (id == null || id.length() != 32) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
