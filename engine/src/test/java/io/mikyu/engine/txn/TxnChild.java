package io.mikyu.engine.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.Task;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.support.ChildProcess;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child process of the transaction crash tests, on a store made by {@link TxnFixture#create} (with at least one
 * job and one src record). Every line it prints ends with {@code " $"}.
 * <ul>
 *   <li>{@code txn <dir> build|commit <order> <leaseMillis>}: leases job-0 and src-0, builds the transaction of
 *       {@link #build} with its operations in {@code order}; {@code build} prints {@code BUILT} and sleeps;
 *       {@code commit} prints {@code COMMITTING}, commits, prints {@code COMMITTED} and sleeps.</li>
 *   <li>{@code prepare <dir> <xidHex> <leaseMillis> [commit]}: the same transaction, prepared; prints
 *       {@code PREPARED}; with {@code commit}, then calls {@code commitPrepared} and prints {@code COMMITTED}; sleeps.</li>
 *   <li>{@code loop <dir> <firstSeq> <threads>}: transactions forever, each appending {@code "<seq>"} to {@code a}
 *       and {@code b} and enqueueing it to {@code out}; prints {@code COMMITTED <seq>} after each commit returns.</li>
 * </ul>
 */
public final class TxnChild {

    private TxnChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        Mikyu store = Mikyu.open(dir);
        switch (args[0]) {
            case "txn" -> txn(store, args[2], args[3], Long.parseLong(args[4]));
            case "prepare" -> prepare(store, TxnFixture.unhex(args[2]), Long.parseLong(args[3]),
                    args.length > 4 && args[4].equals("commit"));
            case "loop" -> loop(store, Long.parseLong(args[2]), Integer.parseInt(args[3]));
            default -> throw new IllegalArgumentException(args[0]);
        }
        ChildProcess.awaitKill();
    }

    /**
     * Appends "a1", "a2" to a and "b1" to b, enqueues "o1" to out, acks job-0, acks src-0 in group sg and commits
     * group ex at 1. {@code order} says which target comes first: {@code log}, {@code task} or {@code shared}.
     */
    static Transaction build(Mikyu store, String order, LeasedTask t, SharedGroup.Delivery d) {
        Transaction tx = store.beginTransaction();
        Runnable logs = () -> tx.append("a", Entry.of("a1")).append("b", Entry.of("b1")).append("a", Entry.of("a2"));
        Runnable tasks = () -> tx.enqueue("out", Task.of("o1")).ack("jobs", t.token());
        Runnable shared = () -> tx.ackShared("src", "sg", d.token());
        switch (order) {
            case "log" -> {
                logs.run();
                tasks.run();
                shared.run();
            }
            case "task" -> {
                tasks.run();
                shared.run();
                logs.run();
            }
            case "shared" -> {
                shared.run();
                logs.run();
                tasks.run();
            }
            case "samequeue" -> {
                // enqueue and ack on one task queue (two writes to its log), then another queue
                return tx.enqueue("jobs", Task.of("follow-up")).ack("jobs", t.token()).append("a", Entry.of("a1"));
            }
            default -> throw new IllegalArgumentException(order);
        }
        return tx.commitOffset("src", "ex", 1);
    }

    private static Transaction leaseAndBuild(Mikyu store, String order, long leaseMillis) throws InterruptedException {
        Duration lease = Duration.ofMillis(leaseMillis);
        LeasedTask t = store.taskQueue("jobs").dequeue(1, lease, Duration.ZERO, null).get(0);
        SharedGroup.Delivery d = store.log("src").sharedGroup("sg", TxnFixture.sharedConfig())
                .fetch(1, lease, Duration.ZERO).get(0);
        ChildProcess.println("LEASED " + t.leaseExpiresAt());
        return build(store, order, t, d);
    }

    private static void txn(Mikyu store, String when, String order, long leaseMillis) throws InterruptedException {
        Transaction tx = leaseAndBuild(store, order, leaseMillis);
        if (when.equals("build")) {
            ChildProcess.println("BUILT " + tx.size());
            return;
        }
        ChildProcess.println("COMMITTING");
        tx.commit();
        ChildProcess.println("COMMITTED");
    }

    private static void prepare(Mikyu store, byte[] xid, long leaseMillis, boolean commit) throws InterruptedException {
        leaseAndBuild(store, "log", leaseMillis).prepare(xid);
        ChildProcess.println("PREPARED");
        if (commit) {
            store.commitPrepared(xid);
            ChildProcess.println("COMMITTED");
        }
    }

    private static void loop(Mikyu store, long firstSeq, int threads) {
        AtomicLong next = new AtomicLong(firstSeq);
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (true) {
                    long seq = next.getAndIncrement();
                    String s = Long.toString(seq);
                    store.beginTransaction()
                            .append("a", Entry.of(s))
                            .append("b", Entry.of(s))
                            .enqueue("out", Task.of(s))
                            .commit();
                    ChildProcess.println("COMMITTED " + seq);
                }
            }, "txn-loop-" + i);
            t.start();
        }
    }
}
