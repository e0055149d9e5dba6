package io.mikyu.broker.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the clients of a fault campaign did and were told, message by message: sends that returned, failed or were
 * committed, every delivery with its redelivery flag and count, and which deliveries an acknowledgement or commit
 * settled for sure. {@link #violations} reads the campaign's invariants off it.
 */
final class DeliveryLedger {

    /** One hand-out of a message to the application. */
    record Delivery(String id, String by, boolean redelivered, int count) {
    }

    /** A failed acknowledgement, commit or send, as the application was told. */
    record Failure(String what, Exception error) {
    }

    /** Sends whose call returned (or whose transaction's commit returned): each must be delivered. */
    private final Set<String> mustArrive = ConcurrentHashMap.newKeySet();
    /** Sends whose outcome the client said is unknown: they may arrive or not. */
    private final Set<String> mayArrive = ConcurrentHashMap.newKeySet();
    /** Sends of transactions reported rolled back: they must never arrive. */
    private final Set<String> mustNotArrive = ConcurrentHashMap.newKeySet();
    private final Map<String, List<Delivery>> deliveries = new ConcurrentHashMap<>();
    /** Per message, the delivery count of the hand-out an ack or commit settled for sure. */
    private final Map<String, Integer> settled = new ConcurrentHashMap<>();
    /** Consumed in a transaction reported rolled back: each must come again (a higher count). */
    private final List<Delivery> rolledBack = new ArrayList<>();
    private final List<Failure> failures = new ArrayList<>();
    private final List<String> wrongAnswers = new ArrayList<>();
    /** Outputs ({@code id@count}) of consume-and-send transactions: committed ones must be there, rolled back not. */
    private final Set<String> outputsCommitted = ConcurrentHashMap.newKeySet();
    private final Set<String> outputsRolledBack = ConcurrentHashMap.newKeySet();
    private final List<String> outputs = new ArrayList<>();
    final AtomicLong sent = new AtomicLong();
    final AtomicLong delivered = new AtomicLong();

    void sent(String id) {
        mustArrive.add(id);
        sent.incrementAndGet();
    }

    void sendUnknown(String id, Exception e) {
        mayArrive.add(id);
        failed("send of " + id, e);
    }

    /** A transaction of sends whose commit's outcome the client said is unknown. */
    void sendsUnknown(List<String> ids, Exception e) {
        mayArrive.addAll(ids);
        failed("commit of sends " + ids, e);
    }

    void sendsRolledBack(List<String> ids, Exception e) {
        mustNotArrive.addAll(ids);
        failed("commit of sends " + ids, e);
    }

    void delivered(Delivery d) {
        deliveries.computeIfAbsent(d.id(), k -> java.util.Collections.synchronizedList(new ArrayList<>())).add(d);
        delivered.incrementAndGet();
    }

    void settled(List<Delivery> ds) {
        for (Delivery d : ds) {
            settled.merge(d.id(), d.count(), Math::max);
        }
    }

    synchronized void consumedRolledBack(List<Delivery> ds, Exception e) {
        rolledBack.addAll(ds);
        failed("commit of consumed " + ids(ds), e);
    }

    /** The outputs a consume-and-send transaction made (one per consumed delivery), by its outcome. */
    void outputsCommitted(List<Delivery> consumed) {
        consumed.forEach(d -> outputsCommitted.add(output(d)));
    }

    void outputsRolledBack(List<Delivery> consumed) {
        consumed.forEach(d -> outputsRolledBack.add(output(d)));
    }

    /** What a consume-and-send transaction sends for a delivery it consumed. */
    static String output(Delivery d) {
        return d.id() + "@" + d.count();
    }

    /** The outputs found in their queue once everything settled. */
    synchronized void outputsFound(List<String> found) {
        outputs.addAll(found);
    }

    synchronized void failed(String what, Exception e) {
        failures.add(new Failure(what, e));
    }

    /** The client answered something that does not say what happened. */
    synchronized void wrongAnswer(String what) {
        wrongAnswers.add(what);
    }

    synchronized List<Failure> failures() {
        return List.copyOf(failures);
    }

    boolean arrived(String id) {
        return deliveries.containsKey(id);
    }

    /** The sends that must arrive and have not yet. */
    List<String> missing() {
        List<String> out = new ArrayList<>();
        for (String id : mustArrive) {
            if (!deliveries.containsKey(id)) {
                out.add(id);
            }
        }
        return out;
    }

    int messages() {
        return deliveries.size();
    }

    /** Messages delivered more than once (each must say so). */
    int duplicates() {
        int n = 0;
        for (List<Delivery> ds : deliveries.values()) {
            if (ds.size() > 1) {
                n++;
            }
        }
        return n;
    }

    /** Deliveries of a message already handed out that did not say so. */
    int unflaggedDuplicates() {
        int n = 0;
        for (List<Delivery> ds : deliveries.values()) {
            synchronized (ds) {
                int unflagged = 0;
                for (Delivery d : ds) {
                    if (!d.redelivered() || d.count() <= 1) {
                        unflagged++;
                    }
                }
                n += Math.max(0, unflagged - 1);
            }
        }
        return n;
    }

    /** Every broken invariant, one line each; empty if all hold. */
    synchronized List<String> violations() {
        List<String> out = new ArrayList<>(wrongAnswers);
        for (String id : missing()) {
            out.add("lost: " + id + " was sent (the send or its commit returned) and never delivered");
        }
        for (String id : mustNotArrive) {
            if (deliveries.containsKey(id)) {
                out.add("rolled back but delivered: " + id + " " + deliveries.get(id));
            }
        }
        for (Map.Entry<String, List<Delivery>> e : new TreeMap<>(deliveries).entrySet()) {
            List<Delivery> ds;
            synchronized (e.getValue()) {
                ds = List.copyOf(e.getValue());
            }
            if (!mustArrive.contains(e.getKey()) && !mayArrive.contains(e.getKey())
                    && !mustNotArrive.contains(e.getKey())) {
                out.add("delivered but never sent: " + ds);
            }
            Set<Integer> counts = new java.util.HashSet<>();
            int unflagged = 0;
            for (Delivery d : ds) {
                if (d.redelivered() != (d.count() > 1)) {
                    out.add("redelivery flag and count disagree: " + d);
                }
                if (!d.redelivered()) {
                    unflagged++;
                }
                if (!counts.add(d.count())) {
                    out.add("handed out twice with the same delivery count: " + ds);
                }
            }
            if (unflagged > 1) {
                out.add("duplicate not flagged redelivered: " + ds);
            }
            Integer settledAt = settled.get(e.getKey());
            if (settledAt != null) {
                for (Delivery d : ds) {
                    if (d.count() > settledAt) {
                        out.add("came back after its acknowledgement or commit returned (settled at delivery "
                                + settledAt + "): " + ds);
                        break;
                    }
                }
            }
        }
        Map<String, List<String>> outputsById = new TreeMap<>();
        for (String o : outputs) {
            outputsById.computeIfAbsent(o.substring(0, o.lastIndexOf('@')), k -> new ArrayList<>()).add(o);
        }
        outputsById.forEach((id, os) -> {
            if (os.size() > 1) {
                out.add("consumed and sent in more than one committed transaction: " + os);
            }
        });
        for (String o : outputsCommitted) {
            if (!outputs.contains(o)) {
                out.add("lost: " + o + " was sent in a transaction whose commit returned, and is not there");
            }
        }
        for (String o : outputsRolledBack) {
            if (outputs.contains(o)) {
                out.add("sent in a transaction reported rolled back, and there: " + o);
            }
        }
        for (Delivery r : rolledBack) {
            boolean again = false;
            for (Delivery d : deliveries.getOrDefault(r.id(), List.of())) {
                again |= d.count() > r.count();
            }
            if (!again && settled.getOrDefault(r.id(), 0) <= r.count()) {
                out.add("reported rolled back but not delivered again: " + r);
            }
        }
        return out;
    }

    private static List<String> ids(List<Delivery> ds) {
        List<String> out = new ArrayList<>();
        ds.forEach(d -> out.add(d.id()));
        return out;
    }
}
