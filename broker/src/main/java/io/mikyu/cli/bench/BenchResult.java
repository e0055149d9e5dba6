package io.mikyu.cli.bench;

import io.mikyu.engine.EngineStats;
import io.mikyu.engine.QueueKind;
import org.HdrHistogram.Histogram;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * What a {@link Bench} run measured. Rates are per second of wall time from the start of the run to the
 * last producer's (or consumer's) finish. MB is 10^6 bytes of payload.
 *
 * @param kind            log: every consumer reads every record; task: the consumers of a queue share its tasks,
 *                        and a task counts as consumed when its ack returned
 * @param latency         write-call latency in nanoseconds, one value per {@code append}/{@code appendBatch}
 *                        (or {@code enqueue}/{@code enqueueBatch}) call
 * @param before          engine counters when the measured run started (after any warm-up)
 * @param verificationError the first record that was lost, duplicated or out of order; {@code null} if none
 * @param usage           what this process used (CPU, collector pauses, page faults) from start to finish
 * @param backlog         a backlog run's reopen time, heap and GC ({@code consumeSeconds} then times the drain
 *                        alone); {@code null} for a run whose consumers ran beside the producers
 */
public record BenchResult(QueueKind kind, BenchSettings settings, long producedMessages, long consumedMessages,
                          double produceSeconds, double consumeSeconds, Histogram latency,
                          EngineStats before, EngineStats after, String verificationError,
                          ProcessUsage usage, BacklogRun backlog) {

    public boolean consumersRan() {
        return settings.consumersPerQueue() > 0;
    }

    /**
     * Log: every consumer saw each record of its queue exactly once, in order. Task: every task was acked exactly
     * once. Trivially true without consumers.
     */
    public boolean verified() {
        return verificationError == null
                && consumedMessages == expectedDeliveries()
                && producedMessages == settings.messages();
    }

    /** Messages the consumers should have consumed (log) or acked (task). */
    public long expectedDeliveries() {
        if (kind == QueueKind.TASK) {
            return consumersRan() ? producedMessages : 0;
        }
        return producedMessages * settings.consumersPerQueue();
    }

    public double produceMessagesPerSecond() {
        return producedMessages / produceSeconds;
    }

    public double produceMegabytesPerSecond() {
        return produceMessagesPerSecond() * settings.messageSize() / 1e6;
    }

    public double consumeMessagesPerSecond() {
        return consumersRan() ? consumedMessages / consumeSeconds : 0;
    }

    public double consumeMegabytesPerSecond() {
        return consumeMessagesPerSecond() * settings.messageSize() / 1e6;
    }

    public double latencyMicros(double percentile) {
        return latency.getValueAtPercentile(percentile) / 1000.0;
    }

    /** Share of this run's reads served from the ring cache of recent records. */
    public double cacheHitRate() {
        long hits = after.cacheHits() - before.cacheHits();
        long total = hits + after.cacheMisses() - before.cacheMisses();
        return total == 0 ? 0 : (double) hits / total;
    }

    public long commits() {
        return after.commits() - before.commits();
    }

    /** Append calls per group commit in this run: how well the write path batched producers together. */
    public double requestsPerCommit() {
        long commits = commits();
        return commits == 0 ? 0 : (double) (after.commitRequests() - before.commitRequests()) / commits;
    }

    public long fsyncs() {
        return after.fsyncs() - before.fsyncs();
    }

    public void print(PrintWriter out) {
        boolean task = kind == QueueKind.TASK;
        out.printf(Locale.ROOT, "produce   %,.0f msgs/s  %.1f MB/s  (%,d msgs of %d bytes in %.2f s)%n",
                produceMessagesPerSecond(), produceMegabytesPerSecond(), producedMessages, settings.messageSize(),
                produceSeconds);
        if (consumersRan()) {
            out.printf(Locale.ROOT, "consume   %,.0f msgs/s  %.1f MB/s  (%,d msgs %s by %d consumer(s) per queue in %.2f s)%n",
                    consumeMessagesPerSecond(), consumeMegabytesPerSecond(), consumedMessages,
                    task ? "dequeued and acked" : "read", settings.consumersPerQueue(), consumeSeconds);
        } else {
            out.println("consume   skipped (--consumers 0)");
        }
        String call = task ? (settings.batch() == 1 ? "enqueue" : "enqueueBatch")
                : (settings.batch() == 1 ? "append" : "appendBatch");
        out.printf(Locale.ROOT, "%-9s p50 %.1f us  p90 %.1f us  p99 %.1f us  p99.9 %.1f us  max %.1f us"
                        + "  (per %s call of %d)%n",
                task ? "enqueue" : "append", latencyMicros(50), latencyMicros(90), latencyMicros(99),
                latencyMicros(99.9), latency.getMaxValue() / 1000.0, call, settings.batch());
        out.printf(Locale.ROOT, "engine    %,d group commits, %.2f %s per commit, %,d fsyncs,"
                        + " ring cache hit rate %.1f%%%n", commits(), requestsPerCommit(),
                task ? "write calls (enqueues, leases, acks)" : "append calls", fsyncs(), cacheHitRate() * 100);
        out.println("cpu       " + usage.describe());
        out.println("          MB = 10^6 bytes of payload");
        if (backlog != null) {
            out.printf(Locale.ROOT, "backlog   produced with no consumer, %s %.3f s, then drained;"
                            + " %sheap peak %.1f MiB, %.1f MiB after GC at most, GC %,d ms in %,d collections%n",
                    backlog.daemonRestarted() ? "the daemon restarted (without it for)" : "store reopened in",
                    backlog.reopenSeconds(), backlog.daemonRestarted() ? "this client's " : "",
                    backlog.heapPeakBytes() / 1048576.0,
                    backlog.heapAfterGcBytes() / 1048576.0, backlog.gcMillis(), backlog.gcCount());
        }
        if (consumersRan()) {
            String verifiedLine = task ? "verified  every task acked exactly once"
                    : "verified  every record consumed once, in order";
            out.println(verified() ? verifiedLine
                    : "FAILED    " + (verificationError != null ? verificationError
                            : (task ? "acked " : "consumed ") + consumedMessages + " of " + expectedDeliveries()
                            + " expected deliveries"));
        }
        out.flush();
    }

    /** The measurements and settings as one flat JSON object; the caller adds what only it knows. */
    public JsonObject toJson() {
        JsonObject json = new JsonObject()
                .put("produce_msgs_per_s", produceMessagesPerSecond())
                .put("produce_mb_per_s", produceMegabytesPerSecond())
                .put("consume_msgs_per_s", consumeMessagesPerSecond())
                .put("consume_mb_per_s", consumeMegabytesPerSecond())
                .put("p50_us", latencyMicros(50))
                .put("p90_us", latencyMicros(90))
                .put("p99_us", latencyMicros(99))
                .put("p999_us", latencyMicros(99.9))
                .put("max_us", latency.getMaxValue() / 1000.0)
                .put("cache_hit_rate", cacheHitRate())
                .put("requests_per_commit", requestsPerCommit())
                .put("commits", commits())
                .put("fsyncs", fsyncs())
                .put("produced_msgs", producedMessages)
                .put("consumed_msgs", consumedMessages)
                .put("produce_s", produceSeconds)
                .put("consume_s", consumeSeconds)
                .put("verified", verified());
        if (verificationError != null) {
            json.put("verification_error", verificationError);
        }
        usage.addTo(json);
        if (backlog != null) {
            json.put("backlog", true)
                    .put(backlog.daemonRestarted() ? "restart_s" : "reopen_s", backlog.reopenSeconds())
                    .put("heap_peak_mb", backlog.heapPeakBytes() / 1048576.0)
                    .put("heap_after_gc_mb", backlog.heapAfterGcBytes() / 1048576.0)
                    .put("gc_ms", backlog.gcMillis())
                    .put("gc_count", backlog.gcCount());
        }
        return json
                .put("workers", settings.workers())
                .put("durability", settings.durability().name().toLowerCase(Locale.ROOT))
                .put("message_size", settings.messageSize())
                .put("bytes", settings.totalBytes())
                .put("batch", settings.batch())
                .put("queues", settings.queues())
                .put("consumers", settings.consumersPerQueue())
                .put("warmup_s", settings.warmup().toMillis() / 1000.0);
    }
}
