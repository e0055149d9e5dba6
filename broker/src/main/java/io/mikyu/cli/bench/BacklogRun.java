package io.mikyu.cli.bench;

/**
 * What a backlog run ({@code mikyu bench run --backlog}) measured besides the rates: the whole volume was produced
 * with no consumer, the store closed and opened again ({@code reopenSeconds}), and then drained by the consumers;
 * and this JVM's heap and collector over the run (see {@link ProcessProbe.HeapWatch}).
 */
public record BacklogRun(double reopenSeconds, long heapPeakBytes, long heapAfterGcBytes, long gcMillis,
                         long gcCount) {
}
