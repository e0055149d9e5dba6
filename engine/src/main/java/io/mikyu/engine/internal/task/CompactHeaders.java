package io.mikyu.engine.internal.task;

import io.mikyu.engine.Headers;

import java.nio.charset.StandardCharsets;

/**
 * A held task's headers in one array: a JMS message's dozen headers as {@link Headers} cost a {@code Header}, a
 * {@code String} and two arrays each (about 1.4 KB a task), encoded here about a fifth of that. Decoded when the
 * task is handed out, browsed, tested by a selector or dead-lettered.
 *
 * <pre>  { nameLength varint, name UTF-8, valueLength + 1 varint (0: a null value), value }*</pre>
 */
final class CompactHeaders {

    private static final byte[] NONE = new byte[0];

    private CompactHeaders() {
    }

    static byte[] encode(Headers headers) {
        if (headers == null || headers.isEmpty()) {
            return NONE;
        }
        int size = 0;
        byte[][] names = new byte[headers.size()][];
        int i = 0;
        for (Headers.Header h : headers.asList()) {
            names[i] = h.name().getBytes(StandardCharsets.UTF_8);
            int valueLength = h.value() == null ? 0 : h.value().length;
            size += varintSize(names[i].length) + names[i].length + varintSize(valueLength + 1) + valueLength;
            i++;
        }
        byte[] out = new byte[size];
        int p = 0;
        i = 0;
        for (Headers.Header h : headers.asList()) {
            p = putVarint(out, p, names[i].length);
            System.arraycopy(names[i], 0, out, p, names[i].length);
            p += names[i].length;
            if (h.value() == null) {
                p = putVarint(out, p, 0);
            } else {
                p = putVarint(out, p, h.value().length + 1);
                System.arraycopy(h.value(), 0, out, p, h.value().length);
                p += h.value().length;
            }
            i++;
        }
        return out;
    }

    static Headers decode(byte[] encoded) {
        if (encoded.length == 0) {
            return Headers.EMPTY;
        }
        Headers.Builder b = Headers.builder();
        int[] p = {0};
        while (p[0] < encoded.length) {
            int nameLength = varint(encoded, p);
            String name = new String(encoded, p[0], nameLength, StandardCharsets.UTF_8);
            p[0] += nameLength;
            int valueLength = varint(encoded, p) - 1;
            byte[] value = valueLength < 0 ? null : java.util.Arrays.copyOfRange(encoded, p[0], p[0] + valueLength);
            p[0] += Math.max(valueLength, 0);
            b.add(name, value);
        }
        return b.build();
    }

    /** The last value of {@code name} as UTF-8, or {@code null}: read in place, for lookups on the dispatch path. */
    static String getString(byte[] encoded, String name) {
        byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
        String found = null;
        int[] p = {0};
        while (p[0] < encoded.length) {
            int nameLength = varint(encoded, p);
            int nameAt = p[0];
            p[0] += nameLength;
            int valueLength = varint(encoded, p) - 1;
            if (java.util.Arrays.equals(encoded, nameAt, nameAt + nameLength, wanted, 0, wanted.length)) {
                found = valueLength < 0 ? null : new String(encoded, p[0], valueLength, StandardCharsets.UTF_8);
            }
            p[0] += Math.max(valueLength, 0);
        }
        return found;
    }

    private static int varintSize(int v) {
        int n = 1;
        while ((v >>>= 7) != 0) {
            n++;
        }
        return n;
    }

    private static int putVarint(byte[] out, int p, int v) {
        while ((v & ~0x7F) != 0) {
            out[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[p++] = (byte) v;
        return p;
    }

    private static int varint(byte[] in, int[] p) {
        int v = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = in[p[0]++];
            v |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
    }
}
