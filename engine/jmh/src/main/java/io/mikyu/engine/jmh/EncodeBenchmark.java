package io.mikyu.engine.jmh;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Record;
import io.mikyu.engine.internal.format.BatchEncoder;
import io.mikyu.engine.internal.format.BatchReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The per-byte work of the produce and consume paths, without any I/O: {@link BatchEncoder#encode} (layout +
 * CRC32C, on the producer thread) and {@link BatchReader#check} + {@link BatchReader#decode} (what a consumer pays
 * per batch read from a segment). Batches of 1 and of 64 entries of 1 KiB, with and without a key and 2 headers.
 * Divide the 64-entry score by 64 for the per-record cost.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class EncodeBenchmark {

    private static final int MAX_RECORD_BYTES = 8 * 1024 * 1024;
    private static final int MAX_BATCH_BYTES = 64 * 1024 * 1024;
    private static final Path FILE = Path.of("jmh-batch"); // only named in corruption errors

    @Param({"1", "64"})
    int entries;

    @Param({"false", "true"})
    boolean keyAndHeaders;

    private List<Entry> batch;
    private long now;
    private ByteBuffer encoded;
    private int encodedLength;

    @Setup
    public void setup() {
        batch = Fixtures.entries(entries, keyAndHeaders, 42);
        now = System.currentTimeMillis();
        byte[] bytes = BatchEncoder.encode(batch, now, MAX_RECORD_BYTES, MAX_BATCH_BYTES);
        encoded = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        encodedLength = bytes.length;
        if (checkAndDecode().size() != entries) {
            throw new IllegalStateException("decode returned the wrong number of records");
        }
    }

    /** Encode + CRC32C of one batch, as {@code LogQueue.append*} does before handing it to the writer. */
    @Benchmark
    public byte[] encode() {
        return BatchEncoder.encode(batch, now, MAX_RECORD_BYTES, MAX_BATCH_BYTES);
    }

    /** Header checks + CRC32C of the whole batch only: the part of {@link #checkAndDecode()} that is not decoding. */
    @Benchmark
    public int checkCrc() {
        return BatchReader.check(encoded, 0, encodedLength, MAX_BATCH_BYTES, true);
    }

    /** Check with CRC, then decode every record into {@link Record}s (copies key, payload and headers out). */
    @Benchmark
    public List<Record> checkAndDecode() {
        if (BatchReader.check(encoded, 0, encodedLength, MAX_BATCH_BYTES, true) != BatchReader.VALID) {
            throw new IllegalStateException("batch does not check");
        }
        List<Record> out = new ArrayList<>(entries);
        BatchReader.decode(encoded, 0, 0, out, Integer.MAX_VALUE, new BatchReader.ReadBudget(Long.MAX_VALUE),
                FILE, 0);
        return out;
    }
}
