package io.mikyu.engine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Ordered, immutable record headers: names are strings, values are bytes (or {@code null}).
 * A name may repeat; {@link #get(String)} returns the last value.
 */
public final class Headers {

    /** One header. The value array is not copied: treat it as read-only. */
    public record Header(String name, byte[] value) {
        public Header {
            Objects.requireNonNull(name, "name");
        }

        /** The value decoded as UTF-8, or {@code null}. */
        public String valueAsString() {
            return value == null ? null : new String(value, StandardCharsets.UTF_8);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Header h && name.equals(h.name) && Arrays.equals(value, h.value);
        }

        @Override
        public int hashCode() {
            return 31 * name.hashCode() + Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return name + "=" + (value == null ? "null" : valueAsString());
        }
    }

    public static final Headers EMPTY = new Headers(List.of());

    private final List<Header> headers;

    private Headers(List<Header> headers) {
        this.headers = headers;
    }

    public static Headers of(List<Header> headers) {
        return headers.isEmpty() ? EMPTY : new Headers(List.copyOf(headers));
    }

    /** Headers from alternating name, value strings: {@code Headers.of("type", "order", "region", "eu")}. */
    public static Headers of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("expected name, value pairs");
        }
        Builder builder = builder();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            builder.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return builder.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public int size() {
        return headers.size();
    }

    public boolean isEmpty() {
        return headers.isEmpty();
    }

    public List<Header> asList() {
        return headers;
    }

    /** The last value of {@code name}, or {@code null} if absent. */
    public byte[] get(String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).name().equals(name)) {
                return headers.get(i).value();
            }
        }
        return null;
    }

    /** The last value of {@code name} as UTF-8, or {@code null}. */
    public String getString(String name) {
        byte[] value = get(name);
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Headers h && headers.equals(h.headers);
    }

    @Override
    public int hashCode() {
        return headers.hashCode();
    }

    @Override
    public String toString() {
        return headers.toString();
    }

    public static final class Builder {
        private final List<Header> headers = new ArrayList<>();

        public Builder add(String name, byte[] value) {
            headers.add(new Header(name, value));
            return this;
        }

        public Builder add(String name, String value) {
            return add(name, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
        }

        public Headers build() {
            return headers.isEmpty() ? EMPTY : new Headers(Collections.unmodifiableList(new ArrayList<>(headers)));
        }
    }
}
