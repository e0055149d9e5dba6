package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mikyu.it.xa.CrashServlet;
import io.mikyu.it.xa.FileResource;
import io.mikyu.it.xa.FileResourceRecovery;
import io.mikyu.jms.MikyuXAConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server is killed (SIGKILL) between prepare and commit of a transaction with three branches: a file-backed
 * test resource enlisted first, then mikyu's on a {@code mikyu daemon} this test starts ({@code tcp://}) and
 * mikyu's on the server's embedded store ({@code vm://}), a message sent through each one's pooled connection
 * factory. After a restart the server's recovery commits all three, and each message is delivered exactly once.
 * The server is a WildFly of this test's own ({@link WildFlyProcess}); the test looks at the daemon through the
 * network and at the embedded store by opening it itself, while the server is down.
 */
@ExtendWith(Daemon.class)
@EnabledIf("io.mikyu.it.Rar#present")
class XaCrashRecoveryIT {

    private static final Duration TIMEOUT = XaApp.TIMEOUT;

    private final int daemonPort = Integer.getInteger("it.daemon.port");
    private final Path data = Path.of(System.getProperty("it.data")).resolve("crash");
    private final Path resource = data.resolve("file-resource");
    /** The server's vm:// store: the adapter's url in configure.cli, under -Dmikyu.it.data. */
    private final String embedded = "vm://" + data.resolve("wildfly");

    static WebArchive app() {
        return ShrinkWrap.create(WebArchive.class, "xa-crash.war")
                .addClasses(Names.class, CrashServlet.class, FileResource.class, FileResourceRecovery.class)
                .addClass(FileResource.class.getName() + "$FileXid")
                // Narayana's API, for FileResourceRecovery
                .setManifest(new StringAsset("Manifest-Version: 1.0\nDependencies: org.jboss.jts\n"));
    }

    @Test
    void serverKilledBetweenPrepareAndCommitIsRecoveredExactlyOnce() throws Exception {
        Files.createDirectories(resource);
        String body = "crash-" + UUID.randomUUID();
        try (WildFlyProcess server = new WildFlyProcess(Path.of(System.getProperty("it.wildfly.crash.base")),
                Integer.getInteger("it.wildfly.crash.port-offset"), List.of(
                        "-Dejb.resource-adapter-name=mikyu-jca.rar",
                        "-Dmikyu.it.data=" + data,
                        "-Dmikyu.it.crash.resource=" + resource,
                        // not the other server's node identifier: each would take the other's branches for orphans
                        "-Dmikyu.it.node-id=mikyu-it-crash",
                        // a recovery pass waits this long (s) between its two halves, 10 by default: a SCAN then
                        // takes 10 s instead of 1 s
                        "-Dcom.arjuna.ats.arjuna.common.RecoveryEnvironmentBean.recoveryBackoffPeriod=1"))) {
            server.deploy(ServerDeployments.rar());
            server.deploy(app());
            server.start();

            Files.writeString(resource.resolve("armed"), "");
            CompletableFuture<HttpResponse<String>> commit = HttpClient.newHttpClient().sendAsync(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/xa-crash/crash?body=" + body))
                            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            awaitCommitting(commit);
            server.kill();

            // Down: the transaction manager logged its decision; mikyu's branches of that transaction are
            // prepared and undecided, and their messages are not delivered.
            assertThat(server.loggedTransactions()).hasSize(1);
            List<Xid> inDoubt = inDoubt(daemon());
            assertThat(inDoubt).hasSize(1);
            String transaction = gtrid(inDoubt.get(0));
            assertThat(inDoubt(embedded())).singleElement().extracting(XaCrashRecoveryIT::gtrid).isEqualTo(transaction);
            assertThat(files("prepared")).singleElement().asString().contains(transaction);
            assertThat(browse(daemon())).doesNotContain(body);
            assertThat(browse(embedded())).doesNotContain(body);

            long restart = System.nanoTime();
            server.start();
            System.out.printf("restart with deployments: %d ms%n", (System.nanoTime() - restart) / 1_000_000);
            // Nothing left in the transaction log: every branch of the transaction is committed, the embedded
            // store's too (the server holds that store while it runs: it is looked at after the stop).
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!inDoubt(daemon()).isEmpty() || !files("prepared").isEmpty() || !server.loggedTransactions().isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("not recovered in " + TIMEOUT + ": mikyu in doubt " + inDoubt(daemon())
                            + ", test resource prepared " + files("prepared") + ", logged "
                            + server.loggedTransactions() + "; server log " + server.base().resolve("log/server.log"));
                }
                long scan = System.nanoTime();
                server.recoveryScan();
                System.out.printf("recovery pass: %d ms%n", (System.nanoTime() - scan) / 1_000_000);
            }
            assertThat(files("committed")).singleElement().asString().contains(transaction);
            assertThat(files("rolled-back")).isEmpty();
            assertThat(receiveAll(daemon())).containsExactly(body);

            server.stop();
            assertThat(inDoubt(embedded())).isEmpty();
            assertThat(receiveAll(embedded())).containsExactly(body);
        }
    }

    private void awaitCommitting(CompletableFuture<HttpResponse<String>> commit) {
        await("the commit in the test resource").atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (commit.isDone()) {
                throw new AssertionError("the commit returned instead of stopping in the test resource: "
                        + commit.get().statusCode() + " " + commit.get().body());
            }
            return !files("committing").isEmpty();
        });
    }

    /** The test resource's branches in a state: the names of its files. */
    private List<String> files(String state) throws IOException {
        Path dir = resource.resolve(state);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    private static String gtrid(Xid xid) {
        return HexFormat.of().formatHex(xid.getGlobalTransactionId());
    }

    private MikyuXAConnectionFactory daemon() {
        return new MikyuXAConnectionFactory("tcp://127.0.0.1:" + daemonPort);
    }

    /** The server's store, opened in this JVM: only while the server is down (one process at a time). */
    private MikyuXAConnectionFactory embedded() {
        return new MikyuXAConnectionFactory(embedded);
    }

    /**
     * The branches in doubt, as a transaction manager's recovery sees them. The connection is closed before this
     * returns, and with it an embedded store that this JVM opened for it.
     */
    private static List<Xid> inDoubt(MikyuXAConnectionFactory store) throws Exception {
        XAConnection connection = store.createXAConnection();
        try {
            XASession session = connection.createXASession();
            return List.of(session.getXAResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN));
        } finally {
            connection.close();
        }
    }

    private static List<String> browse(MikyuXAConnectionFactory store) throws Exception {
        List<String> bodies = new ArrayList<>();
        try (JMSContext context = store.createContext();
             QueueBrowser browser = context.createBrowser(context.createQueue("it.xa.crash"))) {
            for (Object m : Collections.list(browser.getEnumeration())) {
                bodies.add(((jakarta.jms.Message) m).getBody(String.class));
            }
        }
        return bodies;
    }

    /** Takes every message of the queue: once the first came, the queue is empty when none comes for 2 s. */
    private static List<String> receiveAll(MikyuXAConnectionFactory store) {
        List<String> bodies = new ArrayList<>();
        try (JMSContext context = store.createContext()) {
            Queue queue = context.createQueue("it.xa.crash");
            JMSConsumer consumer = context.createConsumer(queue);
            String next = consumer.receiveBody(String.class, TIMEOUT.toMillis());
            while (next != null) {
                bodies.add(next);
                next = consumer.receiveBody(String.class, 2_000);
            }
        }
        return bodies;
    }
}
