package io.mikyu.engine.jmh;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/** Shared test data and temp-directory handling for the benchmarks. */
final class Fixtures {

    static final int PAYLOAD_BYTES = 1024;

    private Fixtures() {
    }

    /**
     * {@code count} entries of {@value #PAYLOAD_BYTES} random (incompressible) payload bytes each, every one with its
     * own array so a 64-entry batch touches 64 KiB like a real one. With {@code keyAndHeaders}, each also gets a
     * 12-byte key and two headers (a type and a 36-char trace id), the shape of a typical JMS message.
     */
    static List<Entry> entries(int count, boolean keyAndHeaders, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Entry> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] payload = new byte[PAYLOAD_BYTES];
            random.nextBytes(payload);
            if (keyAndHeaders) {
                byte[] key = String.format("order-%06d", i).getBytes(StandardCharsets.UTF_8);
                Headers headers = Headers.of("type", "order.created",
                        "trace-id", new java.util.UUID(random.nextLong(), random.nextLong()).toString());
                out.add(new Entry(key, headers, payload, Entry.NO_TIMESTAMP));
            } else {
                out.add(Entry.of(payload));
            }
        }
        return List.copyOf(out);
    }

    /** A fresh directory under {@code java.io.tmpdir} (point it elsewhere with {@code -jvmArgsAppend -Djava.io.tmpdir=...}). */
    static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and everything under it; null-safe. */
    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("deleting " + dir, e);
        }
    }
}
