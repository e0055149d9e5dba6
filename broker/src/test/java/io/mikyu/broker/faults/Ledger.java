package io.mikyu.broker.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The fault campaign's bookkeeping of messages by unique id, per stream (a queue, or one subscription of a topic:
 * each subscription gets its own copy), and the invariants it checks:
 * <ul>
 *   <li>every send that returned is delivered ({@link #lost()});</li>
 *   <li>a send whose transaction was rolled back is never delivered;</li>
 *   <li>nothing whose acknowledgement or commit returned is delivered again;</li>
 *   <li>every delivery after the first says so ({@code JMSRedelivered}, {@code JMSXDeliveryCount} above 1), and
 *       the delivery count only goes up.</li>
 * </ul>
 * A send that threw may or may not have been stored: it is "maybe", delivered or not. Thread-safe.
 */
final class Ledger {

    private static final int MAX_REPORTED = 20;

    private final Map<String, Stream> streams = new LinkedHashMap<>();
    private final List<String> violations = new ArrayList<>();
    private int violationCount;

    /** A send that returned: each of {@code streams} must deliver {@code id}. */
    synchronized void sent(String id, String... streamNames) {
        for (String s : streamNames) {
            stream(s).sent.add(id);
        }
    }

    /** A send (or the commit of a transaction holding it) that threw without saying nothing was stored. */
    synchronized void maybeSent(String id, String... streamNames) {
        for (String s : streamNames) {
            stream(s).maybe.add(id);
        }
    }

    /** A send whose transaction was rolled back: never to be delivered. */
    synchronized void rolledBack(String id, String... streamNames) {
        for (String s : streamNames) {
            Stream stream = stream(s);
            stream.rolledBack.add(id);
            if (stream.deliveries.containsKey(id)) {
                violation(s, id, "delivered, but its transaction was rolled back");
            }
        }
    }

    /** A message handed to the application. */
    synchronized void delivered(String streamName, String id, boolean redelivered, int deliveryCount) {
        delivered(streamName, id, redelivered, deliveryCount, Thread.currentThread().getName());
    }

    /** A message handed to the application of {@code consumer} (named in violations). */
    synchronized void delivered(String streamName, String id, boolean redelivered, int deliveryCount,
                                String consumer) {
        Stream stream = stream(streamName);
        String previousBy = stream.lastBy.put(id, consumer + " at " + System.currentTimeMillis() % 1_000_000
                + " ms");
        stream.deliveryTotal++;
        if (stream.rolledBack.contains(id)) {
            violation(streamName, id, "delivered, but its transaction was rolled back");
        }
        if (stream.settled.containsKey(id)) {
            violation(streamName, id, "delivered again (JMSXDeliveryCount " + deliveryCount
                    + ") after its delivery " + stream.settled.get(id) + " was acknowledged or committed");
        }
        Integer previous = stream.deliveries.get(id);
        if (previous != null) {
            stream.duplicates++;
            if (!redelivered || deliveryCount <= 1) {
                stream.unflagged++;
                violation(streamName, id, "delivered again without saying so (JMSRedelivered " + redelivered
                        + ", JMSXDeliveryCount " + deliveryCount + ")");
            }
            if (deliveryCount <= previous) {
                violation(streamName, id, "JMSXDeliveryCount " + deliveryCount + " to " + stream.lastBy.get(id)
                        + " after " + previous + " to " + previousBy + ": the count did not go up");
            }
        }
        if (deliveryCount > 1 && !redelivered) {
            violation(streamName, id, "JMSXDeliveryCount " + deliveryCount + " but JMSRedelivered false");
        }
        stream.deliveries.merge(id, deliveryCount, Math::max);
    }

    /**
     * The acknowledgement or commit of these deliveries returned: they must not come again. A later delivery of
     * one already recorded means the store took an acknowledgement for a lease another consumer had by then.
     */
    synchronized void settled(String streamName, Map<String, Integer> deliveryCounts) {
        Stream stream = stream(streamName);
        deliveryCounts.forEach((id, count) -> {
            Integer latest = stream.deliveries.get(id);
            if (latest != null && latest > count) {
                violation(streamName, id, "its delivery " + count + " was acknowledged, but it was delivered"
                        + " again (JMSXDeliveryCount " + latest + ") before that");
            }
            stream.settled.putIfAbsent(id, count);
        });
    }

    private Stream stream(String name) {
        return streams.computeIfAbsent(name, n -> new Stream());
    }

    private void violation(String stream, String id, String what) {
        violationCount++;
        if (violations.size() < MAX_REPORTED) {
            violations.add(stream + " " + id + ": " + what);
        }
    }

    synchronized List<String> violations() {
        List<String> out = new ArrayList<>(violations);
        if (violationCount > violations.size()) {
            out.add("... " + (violationCount - violations.size()) + " more");
        }
        return out;
    }

    /** Per stream, the ids whose send returned and that were never delivered. */
    synchronized Map<String, Set<String>> lost() {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        streams.forEach((name, s) -> {
            Set<String> missing = new TreeSet<>(s.sent);
            missing.removeAll(s.deliveries.keySet());
            if (!missing.isEmpty()) {
                out.put(name, missing);
            }
        });
        return out;
    }

    synchronized long lostCount() {
        return lost().values().stream().mapToLong(Set::size).sum();
    }

    /** Whether every send that returned has been delivered. */
    synchronized boolean allDelivered() {
        return lost().isEmpty();
    }

    synchronized int sentCount() {
        return streams.values().stream().mapToInt(s -> s.sent.size()).sum();
    }

    synchronized int deliveredCount(String streamName) {
        return stream(streamName).deliveries.size();
    }

    /** The highest {@code JMSXDeliveryCount} seen for {@code id}, 0 if it was never delivered. */
    synchronized int deliveryCount(String streamName, String id) {
        return stream(streamName).deliveries.getOrDefault(id, 0);
    }

    synchronized int unflaggedDuplicates() {
        return streams.values().stream().mapToInt(s -> s.unflagged).sum();
    }

    /** One line of figures per stream: sent, maybe, delivered, duplicates (flagged), unflagged, lost. */
    synchronized String summary() {
        StringBuilder b = new StringBuilder();
        streams.forEach((name, s) -> {
            Set<String> missing = new TreeSet<>(s.sent);
            missing.removeAll(s.deliveries.keySet());
            Set<String> maybeDelivered = new TreeSet<>(s.maybe);
            maybeDelivered.retainAll(s.deliveries.keySet());
            b.append(String.format("%s: sent %d, maybe %d (of them delivered %d), rolled back %d, delivered %d"
                            + " (deliveries %d, duplicates %d, unflagged %d), lost %d%n", name, s.sent.size(),
                    s.maybe.size(), maybeDelivered.size(), s.rolledBack.size(), s.deliveries.size(), s.deliveryTotal,
                    s.duplicates, s.unflagged, missing.size()));
        });
        return b.toString();
    }

    /** Fails with every violation so far, {@code where} (the cycle and the seed) and the figures. */
    synchronized void assertNoViolations(String where) {
        if (violationCount > 0) {
            throw new AssertionError(where + ": " + violationCount + " violations " + violations() + "\n"
                    + summary());
        }
    }

    /** Fails unless every send that returned was delivered. */
    synchronized void assertNothingLost(String where) {
        Map<String, Set<String>> lost = lost();
        if (!lost.isEmpty()) {
            Map<String, List<String>> shown = new LinkedHashMap<>();
            lost.forEach((k, v) -> shown.put(k, v.stream().limit(MAX_REPORTED).toList()));
            throw new AssertionError(where + ": sends that returned and were never delivered " + shown + "\n"
                    + summary());
        }
    }

    private static final class Stream {
        final Set<String> sent = new HashSet<>();
        final Set<String> maybe = new HashSet<>();
        final Set<String> rolledBack = new HashSet<>();
        /** id → highest JMSXDeliveryCount seen. */
        final Map<String, Integer> deliveries = new HashMap<>();
        /** id → the delivery count whose acknowledgement or commit returned. */
        final Map<String, Integer> settled = new HashMap<>();
        /** id → who had its latest delivery, and when (for the failure message). */
        final Map<String, String> lastBy = new HashMap<>();
        long deliveryTotal;
        int duplicates;
        int unflagged;
    }
}
