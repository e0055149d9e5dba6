package io.mikyu.engine.support;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * Self-describing, self-checking payloads for crash tests: each names its producer and sequence number, carries
 * filler derived from them, and ends with a CRC32 of everything before it, so a reader can tell an intact record
 * from a damaged or misplaced one without any other state.
 */
public final class Payloads {

    /** Who wrote a payload. */
    public record Identity(int producer, long seq) {
    }

    private static final String SUM = ";c=";

    private Payloads() {
    }

    public static byte[] encode(int producer, long seq) {
        SplittableRandom r = new SplittableRandom(producer * 1_000_003L + seq);
        int fill = 16 + r.nextInt(240);
        StringBuilder b = new StringBuilder(fill + 48);
        b.append("p=").append(producer).append(";s=").append(seq).append(';');
        for (int i = 0; i < fill; i++) {
            b.append((char) ('a' + r.nextInt(26)));
        }
        CRC32 crc = new CRC32();
        byte[] body = b.toString().getBytes(StandardCharsets.US_ASCII);
        crc.update(body);
        b.append(SUM).append(Long.toHexString(crc.getValue()));
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Decodes and checks a payload; throws {@link AssertionError} naming what is wrong if it is not intact. */
    public static Identity decode(byte[] payload) {
        if (payload == null) {
            throw new AssertionError("payload is null");
        }
        String text = new String(payload, StandardCharsets.US_ASCII);
        int sum = text.lastIndexOf(SUM);
        if (!text.startsWith("p=") || sum < 0) {
            throw new AssertionError("not a test payload: " + abbreviate(text));
        }
        String[] parts = text.substring(0, sum).split(";", 3);
        int producer;
        long seq;
        try {
            producer = Integer.parseInt(parts[0].substring(2));
            seq = Long.parseLong(parts[1].substring(2));
        } catch (RuntimeException e) {
            throw new AssertionError("unparsable test payload: " + abbreviate(text), e);
        }
        byte[] expected = encode(producer, seq);
        if (!java.util.Arrays.equals(expected, payload)) {
            throw new AssertionError("payload of producer " + producer + " seq " + seq + " is damaged: "
                    + abbreviate(text));
        }
        return new Identity(producer, seq);
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
