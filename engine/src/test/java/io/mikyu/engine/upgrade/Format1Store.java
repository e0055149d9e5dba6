package io.mikyu.engine.upgrade;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskQueueConfig;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How {@code stores/format-1.zip} (test resources) was made: this program, run by mikyu with store format 1 (its
 * {@code FORMAT} file says {@code mikyu-store 1}) with {@code -Dmikyu.test.txnCrashPoint=after-commit-record}, then
 * the data directory zipped. It uses the public API only, so it ran unchanged on that version:
 *
 * <pre>
 *   java -Dmikyu.test.txnCrashPoint=after-commit-record -cp &lt;engine classes, test classes, SLF4J, Micrometer,
 *       JCTools&gt; io.mikyu.engine.upgrade.Format1Store &lt;new data directory&gt;
 *   (cd &lt;data directory&gt; &amp;&amp; rm -f mikyu.lock &amp;&amp; zip -r -X format-1.zip .)
 * </pre>
 *
 * What the store holds (checked by {@link Format1UpgradeTest}):
 * <ul>
 *   <li>log queue {@code events}: {@code r0} … {@code r9}; exclusive group {@code ex} committed at 5;</li>
 *   <li>shared group {@code g}: {@code r0}, {@code r1} acked before a clean close (its committed offset, 2, is in
 *       the offsets file); after reopening {@code r2} acked, {@code r3} delivered, nacked, delivered again under a
 *       2 s lease that ran out long ago, {@code r4} acked by the prepared transaction {@link #XID}, which also
 *       appends {@code o1} to the log queue {@code out}; {@code r5} … {@code r9} never delivered;</li>
 *   <li>shared group {@code dl} (one attempt): {@code r0} nacked, so moved to its dead-letter queue by a store
 *       transaction that the crash point cut off after its COMMIT record: the move is committed, not applied.</li>
 * </ul>
 * The process ends in that crash (exit status 137); nothing after it runs.
 */
public final class Format1Store {

    static final byte[] XID = "format-1-branch".getBytes(StandardCharsets.US_ASCII);
    static final String DEAD_LETTER_REASON = "poison";

    private Format1Store() {
    }

    /** Ten attempts, a short backoff (100 ms doubling up to 400 ms). */
    static SharedGroupConfig groupConfig() {
        return new SharedGroupConfig(100, TaskQueueConfig.defaults().withSegmentBytes(1L << 20)
                .withBackoff(Duration.ofMillis(100), 2.0, Duration.ofMillis(400)).withMaxAttempts(10));
    }

    /** One attempt: a nack moves the record to the dead-letter queue. */
    static SharedGroupConfig deadLetterConfig() {
        return new SharedGroupConfig(100, TaskQueueConfig.defaults().withSegmentBytes(1L << 20).withMaxAttempts(1));
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Duration longLease = Duration.ofMinutes(5);
        try (Mikyu store = Mikyu.open(dir)) {
            LogQueue events = store.createLog("events");
            for (int i = 0; i < 10; i++) {
                events.append(Entry.of("r" + i));
            }
            store.createLog("out");
            events.group("ex").commit(5);
            SharedGroup g = events.sharedGroup("g", groupConfig());
            List<SharedGroup.Delivery> first = g.fetch(2, longLease, Duration.ZERO);
            expect(first, 0);
            expect(first.subList(1, 2), 1);
            g.ack(first.get(0).token());
            g.ack(first.get(1).token());
        }
        Mikyu store = Mikyu.open(dir);
        LogQueue events = store.log("events");
        SharedGroup g = events.sharedGroup("g", groupConfig());
        SharedGroup.Delivery r2 = expect(g.fetch(1, longLease, Duration.ZERO), 2);
        g.ack(r2.token());
        SharedGroup.Delivery r3 = expect(g.fetch(1, longLease, Duration.ZERO), 3);
        g.nack(r3.token(), Duration.ZERO, "first try failed");
        SharedGroup.Delivery again = expect(g.fetch(1, Duration.ofSeconds(2), Duration.ofSeconds(10)), 3);
        if (again.deliveryCount() != 2) {
            throw new IllegalStateException("r3 delivered " + again.deliveryCount() + " times, not 2");
        }
        SharedGroup.Delivery r4 = expect(g.fetch(1, longLease, Duration.ZERO), 4);
        store.beginTransaction().ackShared("events", "g", r4.token()).append("out", Entry.of("o1")).prepare(XID);

        SharedGroup dl = events.sharedGroup("dl", deadLetterConfig());
        SharedGroup.Delivery poison = expect(dl.fetch(1, longLease, Duration.ZERO), 0);
        dl.nack(poison.token(), Duration.ZERO, DEAD_LETTER_REASON);
        throw new IllegalStateException("the move to the dead-letter queue returned: run with "
                + "-Dmikyu.test.txnCrashPoint=after-commit-record");
    }

    private static SharedGroup.Delivery expect(List<SharedGroup.Delivery> ds, long offset) {
        if (ds.isEmpty() || ds.get(0).record().offset() != offset) {
            throw new IllegalStateException("expected record " + offset + ", got " + ds);
        }
        return ds.get(0);
    }
}
