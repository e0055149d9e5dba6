package io.mikyu.bench.kafka;

import java.nio.ByteBuffer;

/**
 * What every message carries besides its body, as JMS properties or Kafka headers: the run it belongs to, its
 * producer and sequence number (to verify every message arrived once) and its send time ({@code System.nanoTime()}).
 */
final class Stamp {

    static final String RUN = "bench_run";
    static final String PRODUCER = "bench_producer";
    static final String SEQ = "bench_seq";
    static final String SENT = "bench_sent";

    private Stamp() {
    }

    static byte[] bytes(long v) {
        return ByteBuffer.allocate(Long.BYTES).putLong(v).array();
    }

    static long number(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }
}
