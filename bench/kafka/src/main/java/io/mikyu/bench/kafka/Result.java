package io.mikyu.bench.kafka;

import java.util.Locale;

/**
 * One run's numbers: messages per second sent and received inside the measured window, the end-to-end latency
 * (receive time minus send time) of the messages sent in it, and the verification's counts.
 */
record Result(int round, Workload workload, String side, double sentPerS, double receivedPerS, double p50us,
              double p99us, long sent, long received, long lost, long duplicates, long foreign, long redelivered,
              double drainS,
              String loadBefore, String loadAfter, String failure) {

    boolean verified() {
        return failure == null && lost == 0 && duplicates == 0 && foreign == 0 && received == sent;
    }

    String json() {
        return String.format(Locale.ROOT, "{\"round\":%d,\"workload\":\"%s\",\"side\":\"%s\",\"sentPerS\":%.1f,"
                        + "\"receivedPerS\":%.1f,\"p50us\":%.0f,\"p99us\":%.0f,\"sent\":%d,\"received\":%d,\"lost\":%d,"
                        + "\"duplicates\":%d,\"foreign\":%d,\"redelivered\":%d,\"drainS\":%.1f,\"loadBefore\":%s,"
                        + "\"loadAfter\":%s,\"verified\":%b}", round, workload.label, side, sentPerS, receivedPerS,
                p50us, p99us, sent, received, lost, duplicates, foreign, redelivered, drainS, loadBefore, loadAfter,
                verified());
    }

    String line() {
        return String.format(Locale.ROOT, "  run %d  %-5s %-12s send %8.0f msgs/s  receive %8.0f msgs/s  p50 %9.0f us"
                        + "  p99 %9.0f us  %d received (%d redelivered), drained in %.1f s%s  (load %s -> %s)", round,
                workload.label, side, sentPerS, receivedPerS, p50us, p99us, received, redelivered, drainS,
                verified() ? ", verified" : ", NOT VERIFIED: lost " + lost + ", duplicates " + duplicates
                        + ", foreign " + foreign + ", sent " + sent + (failure == null ? "" : ", " + failure),
                loadBefore, loadAfter);
    }
}
