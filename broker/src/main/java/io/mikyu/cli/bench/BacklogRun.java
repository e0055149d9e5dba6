package io.mikyu.cli.bench;

/**
 * What a backlog run ({@code mikyu bench run --backlog}) measured besides the rates: the whole volume was produced
 * with no consumer, the store closed and opened again ({@code reopenSeconds}), and then drained by the consumers;
 * and this JVM's heap and collector over the run (see {@link ProcessProbe.HeapWatch}). {@code daemonRestarted}: a
 * remote run, where the reopen was a daemon's restart ({@code reopenSeconds} from closing the connection to dialling
 * the restarted daemon) and the heap and collector are the bench client's, not the daemon's.
 */
public record BacklogRun(double reopenSeconds, long heapPeakBytes, long heapAfterGcBytes, long gcMillis,
                         long gcCount, boolean daemonRestarted) {
}
