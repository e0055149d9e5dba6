package io.mikyu.broker.xa;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A branch that is never prepared, whose client JVM died ({@code kill -9}) after consuming messages in it, with a
 * transaction timeout of {@value #TIMEOUT_SECONDS} s ({@code XAResource.setTransactionTimeout}): its messages come
 * back, flagged redelivered, after the timeout — not before it (less {@link #EARLY}), and by the timeout plus
 * {@link #LATE} — in a loop of {@link Cycles#count()} cycles. With {@code tcp://} the daemon stays up; with
 * {@code vm://} the engine died with the client and the test opens it again at once.
 */
class AbandonedBranchTimeoutTest {

    static final int TIMEOUT_SECONDS = 3;
    static final int MESSAGES = 3;
    /** Clock granularity between two processes and the engine's 100 ms timer. */
    static final Duration EARLY = Duration.ofMillis(200);
    /**
     * What the way back may take on a loaded two-core machine: the engine's 100 ms timer, a consumer stream, the
     * engine's reopening (measured: under 100 ms at a load average of 9).
     */
    static final Duration LATE = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"VM", "TCP"}) // a branch still associated: nothing written ahead
    void messagesConsumedInABranchOfADeadClientComeBackRedeliveredAtTheBranchsTimeoutAndNotBefore(
            Transport transport) {
        Cycles.within(Duration.ofSeconds(30), () -> runCycles(transport));
    }

    private void runCycles(Transport transport) throws Exception {
        int cycles = Cycles.count();
        try (MikyuStore store = MikyuStore.start(transport, dir)) {
            for (int cycle = 1; cycle <= cycles; cycle++) {
                String where = transport + ", cycle " + cycle + " of " + cycles;
                String queue = "work-" + cycle;
                String[] texts = new String[MESSAGES];
                for (int i = 0; i < MESSAGES; i++) {
                    texts[i] = "job-" + cycle + "-" + i;
                }
                Jms.send(store.url(), queue, texts);

                long starting;
                long consumed;
                try (ChildJvm client = ChildJvm.start(dir, "client", XaApplication.class, Map.of(),
                        XaApplication.args("consume", Map.of("url", store.url(), "queue", queue,
                                "count", String.valueOf(MESSAGES), "timeout", String.valueOf(TIMEOUT_SECONDS))))) {
                    starting = Long.parseLong(client.awaitValue("starting", Duration.ofSeconds(60)));
                    consumed = Long.parseLong(client.awaitValue("consumed", Duration.ofSeconds(30)).split(" ")[1]);
                    client.sigkill();
                }
                long killed = System.currentTimeMillis();
                // The branch started after 'starting' and before 'consumed': its deadline is between these two.
                long earliest = starting + TIMEOUT_SECONDS * 1_000L - EARLY.toMillis();
                long latest = consumed + TIMEOUT_SECONDS * 1_000L + LATE.toMillis();
                assertThat(killed).as("%s: the client was killed before its branch's timeout", where)
                        .isLessThan(earliest);

                List<Jms.Received> back = new ArrayList<>();
                try (Connection c = Jms.plain(store.url()).createConnection()) {
                    c.start();
                    Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
                    while (back.size() < MESSAGES && System.currentTimeMillis() < latest) {
                        Message m = consumer.receive(Math.max(1, Math.min(100, latest - System.currentTimeMillis())));
                        if (m != null) {
                            back.add(Jms.received(m));
                        }
                    }
                    assertThat(consumer.receive(Jms.QUIET.toMillis())).as("%s: a message more", where).isNull();
                }
                long deadline = starting + TIMEOUT_SECONDS * 1_000L;
                assertThat(back).as("%s: messages back by %d ms after the branch's timeout (the client died %d ms"
                        + " before it)", where, latest - deadline, deadline - killed).hasSize(MESSAGES);
                for (Jms.Received r : back) {
                    assertThat(r.atMillis()).as("%s: when %s came back, against the branch's timeout %d", where, r,
                            deadline).isGreaterThanOrEqualTo(earliest);
                    assertThat(r.redelivered()).as("%s: JMSRedelivered of %s", where, r).isTrue();
                    assertThat(r.deliveryCount()).as("%s: JMSXDeliveryCount of %s", where, r).isEqualTo(2);
                }
                assertThat(Jms.texts(back)).containsExactlyInAnyOrder(texts);
                System.out.printf("%s: back %s ms after the timeout%n", where,
                        back.stream().map(r -> String.valueOf(r.atMillis() - deadline)).toList());
            }
        }
    }
}
