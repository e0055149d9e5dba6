package io.mikyu.engine.support;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Record;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Appends and checks numbered records whose payload says which offset they were appended at. */
public final class Fill {

    private Fill() {
    }

    /** The payload of record {@code i}: about 100 bytes, unique. */
    public static String payload(long i) {
        return "record-" + i + "-" + "x".repeat(80 + (int) (i % 17));
    }

    /** Appends records {@code from .. to-1} one per call (one batch each); checks each gets offset i. */
    public static void append(LogQueue q, long from, long to) {
        for (long i = from; i < to; i++) {
            assertThat(q.append(Entry.of(payload(i)))).isEqualTo(i);
        }
    }

    /** Every record in {@code [from, to)} is present and carries its own payload. */
    public static void assertIntact(LogQueue q, long from, long to) {
        List<Record> all = readRange(q, from, to);
        assertThat(all).hasSize((int) (to - from));
        for (int k = 0; k < all.size(); k++) {
            Record r = all.get(k);
            assertThat(r.offset()).isEqualTo(from + k);
            assertThat(r.payloadAsString()).isEqualTo(payload(from + k));
        }
    }

    public static List<Record> readRange(LogQueue q, long from, long to) {
        List<Record> out = new ArrayList<>();
        long next = from;
        while (next < to) {
            List<Record> chunk = q.read(next, 1000);
            if (chunk.isEmpty()) {
                break;
            }
            for (Record r : chunk) {
                if (r.offset() < to) {
                    out.add(r);
                }
            }
            next = chunk.get(chunk.size() - 1).offset() + 1;
        }
        return out;
    }

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
