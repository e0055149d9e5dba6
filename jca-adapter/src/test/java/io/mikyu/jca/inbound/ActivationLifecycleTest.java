package io.mikyu.jca.inbound;

import io.mikyu.jca.admin.AdminQueue;
import io.mikyu.jca.admin.AdminTopic;
import io.mikyu.jca.outbound.MikyuManagedConnectionFactory;
import io.mikyu.jca.testkit.MapContextFactory;
import io.mikyu.jca.testkit.TestConnectionManager;
import io.mikyu.jca.testkit.TestEndpointFactory;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.MikyuXAConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Activation and deactivation, setup retries, JNDI lookups, recovery resources, the adapter's stop. */
@Timeout(60)
class ActivationLifecycleTest {

    @TempDir
    Path data;
    private Inbound inbound;

    @BeforeEach
    void open() throws Exception {
        inbound = new Inbound(data.resolve("store"));
    }

    @AfterEach
    void close() throws Exception {
        inbound.close();
        MapContextFactory.BINDINGS.clear();
    }

    @Test
    void deactivationGivesPrefetchedMessagesBackAtOnceAndLetsTheDeliveryInProgressFinish() throws Exception {
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        TestEndpointFactory mdb = new TestEndpointFactory(false, (m, tm) -> {
            if (TestEndpointFactory.text(m).equals("m3")) {
                blocked.countDown();
                release.await(30, TimeUnit.SECONDS);
            }
        });
        MikyuActivationSpec spec = Inbound.queue("slow");
        spec.setMaxSession(1);
        inbound.send("slow", "m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9");
        inbound.activate(mdb, spec);
        assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue(); // batches of 1, 2, 4: m4..m6 are prefetched

        CompletableFuture<Void> deactivation = CompletableFuture.runAsync(
                () -> inbound.ra.endpointDeactivation(mdb, spec));
        List<Message> rest = inbound.drain("slow", 5_000); // while m3 is still being delivered
        assertThat(Inbound.texts(rest)).containsExactlyInAnyOrder("m4", "m5", "m6", "m7", "m8", "m9");
        assertThat(rest).noneMatch(ActivationLifecycleTest::redelivered);
        assertThat(deactivation).as("waits for the delivery in progress").isNotDone();

        release.countDown();
        deactivation.get(10, TimeUnit.SECONDS);
        assertThat(mdb.texts()).containsExactly("m0", "m1", "m2", "m3");
        assertThat(inbound.drain("slow", 300)).as("m3 was acknowledged").isEmpty();
    }

    private static boolean redelivered(Message m) {
        try {
            return m.getJMSRedelivered();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anActivationKeepsTryingUntilTheStoreCanBeOpened() throws Exception {
        Path blocker = data.resolve("later");
        Files.writeString(blocker, "a file where the store's directory should be");
        TestEndpointFactory mdb = new TestEndpointFactory(true, (m, tm) -> { });
        MikyuActivationSpec spec = Inbound.queue("late");
        spec.setUrl("vm://" + blocker + "?durability=async");
        spec.setSetupInterval(100L);
        inbound.activate(mdb, spec); // does not fail: it retries
        await("an attempt failed, the next one waited for").atMost(Inbound.AT_MOST)
                .until(ActivationLifecycleTest::aSetupWaitsToTryAgain);
        Files.delete(blocker);
        try (var c = new MikyuConnectionFactory("vm://" + blocker + "?durability=async").createConnection();
             var s = c.createSession()) {
            s.createProducer(s.createQueue("late")).send(s.createTextMessage("finally"));
            await("the delivery").atMost(Inbound.AT_MOST).until(() -> mdb.deliveries.size() == 1);
        }
        assertThat(mdb.texts()).containsExactly("finally");
        inbound.ra.endpointDeactivation(mdb, spec);
    }

    /**
     * Whether an activation's setup is between two attempts, waiting (for the setup interval) to try again: a
     * thread in {@code Object.wait} called from the setup itself.
     */
    private static boolean aSetupWaitsToTryAgain() {
        return Thread.getAllStackTraces().values().stream().anyMatch(stack -> {
            int i = 0;
            while (i < stack.length && stack[i].getClassName().equals("java.lang.Object")
                    && stack[i].getMethodName().startsWith("wait")) {
                i++;
            }
            return i > 0 && i < stack.length && stack[i].getClassName().endsWith("EndpointActivation$Setup")
                    && stack[i].getMethodName().equals("run");
        });
    }

    @Test
    void destinationAndConnectionFactoryAreLookedUp() throws Exception {
        MikyuManagedConnectionFactory mcf = new MikyuManagedConnectionFactory();
        mcf.setResourceAdapter(inbound.ra);
        mcf.setMaxAttempts(2);
        MapContextFactory.BINDINGS.put("java:/jms/cf", mcf.createConnectionFactory(new TestConnectionManager(null)));
        MapContextFactory.BINDINGS.put("java:/jms/queue/invoices", new AdminQueue("invoices"));
        MapContextFactory.BINDINGS.put("java:/jms/topic/news", new AdminTopic("news"));

        TestEndpointFactory mdb = new TestEndpointFactory(false, (m, tm) -> {
            throw new RuntimeException("always");
        });
        MikyuActivationSpec spec = new MikyuActivationSpec();
        spec.setDestinationLookup("java:/jms/queue/invoices");
        spec.setConnectionFactoryLookup("java:/jms/cf");
        inbound.activate(mdb, spec);
        inbound.awaitSessions(MikyuActivationSpec.DEFAULT_MAX_SESSION); // the queue created, maxAttempts the pool's
        inbound.send("invoices", "inv-1");
        assertThat(Inbound.texts(inbound.drain("invoices/dlq", 10_000))).as("the pool's maxAttempts=2 applied")
                .containsExactly("inv-1");
        assertThat(mdb.deliveries).hasSize(2);

        TestEndpointFactory news = new TestEndpointFactory(false, (m, tm) -> { });
        MikyuActivationSpec topic = new MikyuActivationSpec();
        topic.setDestinationLookup("java:/jms/topic/news");
        inbound.activate(news, topic);
        inbound.awaitSessions(MikyuActivationSpec.DEFAULT_MAX_SESSION + 1); // and subscribed to the topic
        inbound.publish("news", "n-1");
        await("the news").atMost(Inbound.AT_MOST).until(() -> news.deliveries.size() == 1);
    }

    @Test
    void getXAResourcesGivesResourcesThatRecoverTheStoresPreparedBranches() throws Exception {
        Xid xid = new Xid() {
            @Override
            public int getFormatId() {
                return 77;
            }

            @Override
            public byte[] getGlobalTransactionId() {
                return new byte[] {1, 2, 3};
            }

            @Override
            public byte[] getBranchQualifier() {
                return new byte[] {4};
            }
        };
        try (XAConnection c = new MikyuXAConnectionFactory(inbound.url).createXAConnection()) {
            XASession s = c.createXASession();
            s.getXAResource().start(xid, XAResource.TMNOFLAGS);
            s.createProducer(s.createQueue("in-doubt")).send(s.createTextMessage("prepared"));
            s.getXAResource().end(xid, XAResource.TMSUCCESS);
            assertThat(s.getXAResource().prepare(xid)).isEqualTo(XAResource.XA_OK);
        } // the application is gone; the branch is in doubt in the store

        MikyuActivationSpec spec = Inbound.queue("anything");
        spec.setResourceAdapter(inbound.ra);
        MikyuActivationSpec unreachable = Inbound.queue("anything");
        unreachable.setUrl("vm://" + Files.writeString(data.resolve("not-a-dir"), "x"));
        unreachable.setResourceAdapter(inbound.ra);
        XAResource[] resources = inbound.ra.getXAResources(new MikyuActivationSpec[] {spec, unreachable, spec});
        assertThat(resources).as("one per store; the unreachable one left out").hasSize(1);
        Xid[] found = resources[0].recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
        assertThat(found).anyMatch(x -> x.getFormatId() == 77 && Arrays.equals(x.getGlobalTransactionId(),
                new byte[] {1, 2, 3}));
        resources[0].commit(xid, false);
        assertThat(Inbound.texts(inbound.drain("in-doubt", 2_000))).containsExactly("prepared");
        assertThat(inbound.ra.getXAResources(null)).isEmpty();
    }

    @Test
    void stoppingTheAdapterDeactivatesEverythingAndClosesItsConnections() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(true, (m, tm) -> { });
        inbound.activate(mdb, Inbound.queue("a"));
        MikyuManagedConnectionFactory mcf = new MikyuManagedConnectionFactory();
        mcf.setResourceAdapter(inbound.ra);
        var cf = (jakarta.jms.ConnectionFactory) mcf.createConnectionFactory(new TestConnectionManager(null));
        var handle = cf.createConnection(); // never closed by the "application"
        assertThat(inbound.ra.connections().size()).isEqualTo(1);
        inbound.awaitSessions(MikyuActivationSpec.DEFAULT_MAX_SESSION);

        inbound.ra.stop();
        assertThat(inbound.ra.connections().size()).isZero();
        await("the delivering sessions to end").atMost(Inbound.AT_MOST)
                .until(() -> inbound.bootstrap.workManager().running() == 0);
        inbound.send("a", "after stop");
        assertThat(Inbound.texts(inbound.drain("a", 2_000))).as("nobody took it").containsExactly("after stop");
        assertThat(mdb.deliveries).isEmpty();
        handle.close();
    }
}
