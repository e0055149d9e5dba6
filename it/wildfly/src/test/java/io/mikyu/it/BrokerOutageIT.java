package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mikyu.it.app.DeliveryLog;
import io.mikyu.it.app.OutageReceiverMdb;
import io.mikyu.it.app.OutageServlet;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.jboss.as.controller.client.ModelControllerClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The daemon dies under load and comes back: client threads keep sending through the pooled factory (a JTA
 * transaction each, {@link OutageServlet}) while the test kills the {@code mikyu daemon} with {@code kill -9} and,
 * once the pool has discarded connections it was told are broken and the message-driven bean's activation has lost
 * its connection, starts it again on the same directory and port. Then: no request that starts after the daemon
 * is back fails; every send the servlet reported committed is consumed by the bean (a delivery whose transaction
 * committed) and the broker's queue ends empty; a message is consumed twice only after a delivery whose commit
 * failed with its outcome unknown, and then comes again flagged redelivered. Sends during the outage may fail, each
 * with an error answer; they are counted.
 */
@ExtendWith({Daemon.class, ArquillianExtension.class})
@EnabledIf("io.mikyu.it.Rar#present")
@RunAsClient
class BrokerOutageIT extends ServerDeployments {

    private static final Duration TIMEOUT = Duration.ofSeconds(Long.getLong("it.timeout.seconds", 60));
    private static final int CLIENTS = 4;
    private static final int BEFORE = 20;
    private static final int AFTER = 40;
    /** The outage pool's statistics (configure.cli). */
    private static final ModelNode POOL = Operations.createAddress("subsystem", "resource-adapters",
            "resource-adapter", "mikyu-jca.rar", "connection-definitions", "mikyu-it-outage-cf", "statistics", "pool");
    /** The bean's activation names its queue in its log lines (EndpointActivation). */
    private static final String ACTIVATION = "mikyu inbound '" + Names.OUTAGE_QUEUE + "' (JNDI) -> ";
    private static final String LOST = ": the connection was lost; connecting again";
    private static final String QUEUE = "it.outage.queue";
    private static final String COMPLETION_FAILED = ": completing the delivery's transaction failed";

    @Deployment(name = "app", order = 2, testable = false)
    static WebArchive app() {
        return ShrinkWrap.create(WebArchive.class, "outage.war")
                .addClasses(Names.class, OutageServlet.class, DeliveryLog.class, OutageReceiverMdb.class);
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** One request's outcome, with when it started and ended (System.nanoTime). */
    record Outcome(String body, long started, long ended, boolean committed, String answer) {
        String firstLine() {
            int end = answer.indexOf('\n');
            return (end < 0 ? answer : answer.substring(0, end)).trim();
        }
    }

    @Test
    void committedSendsSurviveTheDaemonsKillAndRestart(@ArquillianResource @OperateOnDeployment("app") URL base,
                                                       Daemon daemon) throws Exception {
        Path serverLog = Path.of(System.getProperty("it.server.home"), "standalone", "log", "server.log");
        long logStart = Files.size(serverLog);
        ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            int client = i;
            Thread t = new Thread(() -> sendUntilStopped(base, "c" + client + "-", outcomes, stop), "client-" + i);
            t.start();
            clients.add(t);
        }
        long back;
        long destroyedDuringOutage;
        try (ModelControllerClient management = ModelControllerClient.Factory.create("remote+http", "127.0.0.1",
                Integer.getInteger("it.wildfly.management-port"))) {
            await(BEFORE + " commits before the kill", () -> committed(outcomes, 0) >= BEFORE);

            long destroyedBefore = destroyed(management);
            long pid = daemon.pid();
            long killed = System.nanoTime();
            daemon.kill();
            // Down until the pool has destroyed connections the adapter reported broken, a request has failed and
            // the bean's activation has lost its connection: each outlives reconnect (2 s) only through this outage.
            await("pool destroying broken connections, failed request and activation's loss", () ->
                    destroyed(management) > destroyedBefore
                            && outcomes.stream().anyMatch(o -> !o.committed() && o.started() > killed)
                            && logSince(serverLog, logStart).lines()
                                    .anyMatch(l -> l.contains(ACTIVATION) && l.contains(LOST)));
            destroyedDuringOutage = destroyed(management) - destroyedBefore;

            daemon.start();
            back = System.nanoTime();
            System.out.printf("daemon pid %d killed with -9, down %d ms, back as pid %d%n", pid,
                    (back - killed) / 1_000_000, daemon.pid());
            long restarted = back;
            await(AFTER + " commits after the restart", () -> committed(outcomes, restarted) >= AFTER);
        } finally {
            stop.set(true);
            for (Thread t : clients) {
                t.join(TIMEOUT.toMillis());
            }
        }

        List<Outcome> all = new ArrayList<>(outcomes);
        List<Outcome> failed = all.stream().filter(o -> !o.committed()).toList();
        Map<String, Long> failures = failed.stream().collect(
                Collectors.groupingBy(Outcome::firstLine, LinkedHashMap::new, Collectors.counting()));
        System.out.printf("%d requests: %d committed, %d failed, %d pooled connections destroyed; failures: %s%n",
                all.size(), all.size() - failed.size(), failed.size(), destroyedDuringOutage, failures);

        // Once the daemon is back, nothing fails.
        assertThat(all.stream().filter(o -> o.started() > back && !o.committed()).map(Outcome::answer))
                .as("requests that started after the daemon was back").isEmpty();
        // A failure is an answer with the error, never a request left hanging.
        assertThat(failed).allSatisfy(o -> assertThat(o.answer()).startsWith("500 "));

        // Every committed send is consumed, and once only.
        Set<String> committed = all.stream().filter(Outcome::committed).map(Outcome::body)
                .collect(Collectors.toCollection(HashSet::new));
        await("consumption of every committed send", () -> consumed(base).containsAll(committed));
        // Narayana reports a one-phase commit with its outcome unknown (HEURISTIC_HAZARD) to synchronizations as
        // committed, so a delivery whose completion failed is in the bean's log as consumed: the broker is the
        // judge. Such a message comes back when its lease ends (5 s on this pool), and is consumed then; until the
        // queue holds nothing, ready or leased, some message is not consumed yet.
        try (Mikyu broker = Mikyu.dial("tcp://127.0.0.1:" + Integer.getInteger("it.daemon.port"))) {
            TaskQueue queue = broker.taskQueue(QUEUE);
            await("the broker's queue emptied (nothing ready, scheduled or leased)", () -> {
                TaskCounts c = queue.counts();
                return c.ready() == 0 && c.scheduled() == 0 && c.inFlight() == 0;
            });
        }
        List<String> consumed = consumed(base);
        List<String> deliveries = lines(base, "delivered");
        Map<String, Long> extra = consumed.stream().collect(Collectors.groupingBy(b -> b, Collectors.counting()))
                .entrySet().stream().filter(e -> e.getValue() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue() - 1));
        // A body the bean was given again after a delivery the transaction manager called committed: only where that
        // commit failed with its outcome unknown (one-phase, the connection lost on the way: Narayana reports such a
        // heuristic hazard to synchronizations as STATUS_COMMITTED), the broker had not consumed it, and it came
        // again flagged redelivered. The adapter logs each such failure; more repeats than failures would be a
        // message consumed twice.
        long failedCompletions = logSince(serverLog, logStart).lines()
                .filter(l -> l.contains(ACTIVATION) && l.contains(COMPLETION_FAILED)).count();
        assertThat(extra.values().stream().mapToLong(Long::longValue).sum())
                .as("repeated consumptions %s beyond the deliveries whose completion failed; deliveries: %s", extra,
                        deliveries)
                .isLessThanOrEqualTo(failedCompletions);
        for (String body : extra.keySet()) {
            List<String> given = deliveries.stream().filter(d -> d.equals(body) || d.equals(body + " redelivered"))
                    .toList();
            assertThat(given.subList(1, given.size())).as("deliveries of %s after the first", body)
                    .allMatch(d -> d.endsWith(" redelivered"));
        }
        long redelivered = deliveries.stream().filter(l -> l.endsWith(" redelivered")).count();
        System.out.printf("consumed %d (%d of them sent by requests that failed), %d deliveries flagged redelivered, "
                        + "%d delivery completions failed, repeated after those: %s%n", consumed.size(),
                consumed.stream().filter(b -> !committed.contains(b)).count(), redelivered, failedCompletions, extra);
    }

    private List<String> consumed(URL base) {
        try {
            return lines(base, "committed");
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private void sendUntilStopped(URL base, String prefix, ConcurrentLinkedQueue<Outcome> outcomes,
                                  AtomicBoolean stop) {
        for (int n = 0; !stop.get(); n++) {
            String body = prefix + n;
            long started = System.nanoTime();
            String answer;
            boolean committed;
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                                URI.create(base + "outage/send?body=" + body))
                        .POST(HttpRequest.BodyPublishers.noBody()).timeout(TIMEOUT).build(),
                        HttpResponse.BodyHandlers.ofString());
                committed = response.statusCode() == 200 && "committed".equals(response.body());
                answer = response.statusCode() + " " + response.body();
            } catch (IOException e) {
                committed = false;
                answer = "no answer: " + e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            outcomes.add(new Outcome(body, started, System.nanoTime(), committed, answer));
            if (!committed) {
                pause(); // as a client would before trying again, rather than flooding a server that has no broker
            }
        }
    }

    /** A retrying client's pause: the pace of the load this test puts on the server, not a wait for anything. */
    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long committed(ConcurrentLinkedQueue<Outcome> outcomes, long startedAfter) {
        return outcomes.stream().filter(o -> o.committed() && o.started() > startedAfter).count();
    }

    /** The pool's DestroyedCount, through the management interface on loopback (local authentication). */
    private static long destroyed(ModelControllerClient management) {
        try {
            ModelNode result = management.execute(
                    Operations.createReadAttributeOperation(POOL, "DestroyedCount"));
            if (!Operations.isSuccessfulOutcome(result)) {
                throw new AssertionError("reading the pool's statistics: "
                        + Operations.getFailureDescription(result));
            }
            return Operations.readResult(result).asLong();
        } catch (IOException e) {
            throw new AssertionError("reading the pool's statistics", e);
        }
    }

    private static String logSince(Path log, long from) {
        try {
            byte[] all = Files.readAllBytes(log);
            return new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private List<String> lines(URL base, String what) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create(base + "outage/received?what=" + what)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body().isEmpty() ? List.of() : List.of(response.body().split("\n"));
    }

    /** Awaits {@code condition}; on the deadline, fails with the server's threads (what it was doing). */
    private static void await(String what, BooleanSupplier condition) {
        try {
            Awaitility.await(what).atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
                    .until(condition::getAsBoolean);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("no " + what + " in " + TIMEOUT + "; "
                    + ServerThreads.dump("waiting for " + what));
        }
    }
}
