package io.mikyu.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Turns standard input into batches, one item per line: large enough (1,000 items or 1 MiB) to amortize a group
 * commit, small enough to stream. Shared by {@code append -} and {@code enqueue -}.
 */
final class StdinBatches {

    private static final int BATCH_ITEMS = 1000;
    private static final long BATCH_BYTES = 1L << 20;

    /** Writes one batch and returns the offset or id of its first item. */
    interface Writer<T> {
        long write(List<T> batch);
    }

    /** What was written: how many items, and the offset or id of the first (-1 if none). */
    record Written(long count, long first) {
    }

    private StdinBatches() {
    }

    static <T> Written write(InputStream input, Function<String, T> item, ToIntFunction<T> size, Writer<T> writer)
            throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
        List<T> batch = new ArrayList<>(BATCH_ITEMS);
        long batchBytes = 0;
        long first = -1;
        long count = 0;
        String line;
        while ((line = reader.readLine()) != null) {
            T t = item.apply(line);
            batch.add(t);
            batchBytes += size.applyAsInt(t);
            if (batch.size() == BATCH_ITEMS || batchBytes >= BATCH_BYTES) {
                long at = writer.write(batch);
                first = first < 0 ? at : first;
                count += batch.size();
                batch.clear();
                batchBytes = 0;
            }
        }
        if (!batch.isEmpty()) {
            long at = writer.write(batch);
            first = first < 0 ? at : first;
            count += batch.size();
        }
        return new Written(count, first);
    }
}
