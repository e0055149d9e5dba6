package io.mikyu.cli.bench;

import java.util.Locale;

/**
 * What this process used over a bench run: CPU time (user and system where the OS tells), collector pauses and
 * page faults, so a throughput figure comes with what it cost and whether the pipeline stalled (cores left idle,
 * time in pauses, fresh memory faulted in). Taken as a {@link Snapshot} at the start and the end of the run, each
 * read by {@link ProcessProbe}.
 *
 * @param wallSeconds   the run's wall time
 * @param cpuSeconds    process CPU time, user + system
 * @param userSeconds   user part of {@code cpuSeconds}, or -1 where the OS does not say
 * @param systemSeconds system part of {@code cpuSeconds}, or -1 where the OS does not say
 * @param cores         processors available to the JVM
 * @param gcPauses      stop-the-world collections (concurrent cycles are not pauses and not counted)
 * @param gcPauseSeconds their total time
 * @param minorFaults   page faults served without I/O (first touch of fresh memory), or -1
 * @param majorFaults   page faults that read from disk, or -1
 * @param heapCommittedBytes heap the JVM had committed at the end
 */
public record ProcessUsage(double wallSeconds, double cpuSeconds, double userSeconds, double systemSeconds, int cores,
                           long gcPauses, double gcPauseSeconds, long minorFaults, long majorFaults,
                           long heapCommittedBytes) {

    /** Cores busy on average: CPU time over wall time. */
    public double coresUsed() {
        return wallSeconds <= 0 ? 0 : cpuSeconds / wallSeconds;
    }

    /** Share of all the machine's cores this process kept busy, 0 to 1. */
    public double utilisation() {
        return coresUsed() / cores;
    }

    public static Snapshot snapshot() {
        return Snapshot.take();
    }

    /** Counters at one moment. */
    public record Snapshot(long nanos, long cpuNanos, long userTicks, long systemTicks, long gcCount, long gcMillis,
                           long minorFaults, long majorFaults) {

        static Snapshot take() {
            long[] collections = ProcessProbe.collections(true);
            long[] stat = ProcessProbe.procSelfStat();
            return new Snapshot(System.nanoTime(), ProcessProbe.cpuTimeNanos(), stat[2], stat[3], collections[0],
                    collections[1], stat[0], stat[1]);
        }

        /** What happened from this snapshot to {@code end}. */
        public ProcessUsage until(Snapshot end) {
            double cpu = (end.cpuNanos - cpuNanos) / 1e9;
            long user = end.userTicks - userTicks;
            long system = end.systemTicks - systemTicks;
            boolean split = userTicks >= 0 && end.userTicks >= 0 && user + system > 0;
            // The kernel counts user and system time in ticks: its split, applied to the precise total.
            double userSeconds = split ? cpu * user / (user + system) : -1;
            double systemSeconds = split ? cpu - userSeconds : -1;
            return new ProcessUsage((end.nanos - nanos) / 1e9, cpu, userSeconds, systemSeconds,
                    Runtime.getRuntime().availableProcessors(), end.gcCount - gcCount,
                    (end.gcMillis - gcMillis) / 1e3,
                    minorFaults < 0 ? -1 : end.minorFaults - minorFaults,
                    majorFaults < 0 ? -1 : end.majorFaults - majorFaults,
                    ProcessProbe.heapCommitted());
        }
    }

    /** One line for the bench's summary. */
    public String describe() {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%.2f of %d cores (%.0f %%)", coresUsed(),
                cores, utilisation() * 100));
        if (userSeconds >= 0) {
            s.append(String.format(Locale.ROOT, ": user %.2f, system %.2f", userSeconds / wallSeconds,
                    systemSeconds / wallSeconds));
        }
        s.append(String.format(Locale.ROOT, "; GC %d pauses, %.3f s (%.1f %% of %.2f s)", gcPauses, gcPauseSeconds,
                wallSeconds <= 0 ? 0 : gcPauseSeconds / wallSeconds * 100, wallSeconds));
        if (minorFaults >= 0) {
            s.append(String.format(Locale.ROOT, "; %,d page faults", minorFaults + majorFaults));
        }
        s.append(String.format(Locale.ROOT, "; heap %,d MB", heapCommittedBytes / 1_000_000));
        return s.toString();
    }

    /** Adds the figures to a bench's JSON result. */
    public JsonObject addTo(JsonObject json) {
        return json.put("wall_s", wallSeconds)
                .put("cpu_cores", cores)
                .put("cpu_s", cpuSeconds)
                .put("cpu_user_s", userSeconds)
                .put("cpu_system_s", systemSeconds)
                .put("cpu_cores_used", coresUsed())
                .put("cpu_utilisation", utilisation())
                .put("gc_pauses", gcPauses)
                .put("gc_pause_s", gcPauseSeconds)
                .put("page_faults_minor", minorFaults)
                .put("page_faults_major", majorFaults)
                .put("heap_committed_mb", heapCommittedBytes / 1e6);
    }
}
