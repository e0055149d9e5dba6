package io.mikyu.broker.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.Task;
import io.mikyu.engine.TransactionExistsException;
import io.mikyu.engine.TransactionNotFoundException;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.security.PasswordHash;
import io.mikyu.engine.security.SecurityRealm;
import io.mikyu.protocol.ClientHello;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.Protocol;
import io.mikyu.protocol.ServerHello;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Prepared branches over a broker: owned by the user who prepared them, seen and decided only by that user or by a
 * user who may manage every queue they name; the store's id; the in-doubt meters.
 */
@Timeout(60)
class InDoubtBranchesTest {

    /**
     * alice and bob may produce and consume on orders and events.*; ops may manage everything; clerk may manage
     * orders only. Few PBKDF2 iterations keep the test fast.
     */
    static SecurityRealm realm() {
        return SecurityRealm.from(MikyuConfig.load(null, Map.ofEntries(
                Map.entry("users.alice.password", hash("a-pass")),
                Map.entry("users.alice.roles", "apps"),
                Map.entry("users.bob.password", hash("b-pass")),
                Map.entry("users.bob.roles", "apps"),
                Map.entry("users.ops.password", hash("o-pass")),
                Map.entry("users.ops.roles", "operators"),
                Map.entry("users.clerk.password", hash("c-pass")),
                Map.entry("users.clerk.roles", "clerks"),
                Map.entry("roles.apps.produce", "orders, events.*"),
                Map.entry("roles.apps.consume", "orders, events.*"),
                Map.entry("roles.operators.manage", "*"),
                Map.entry("roles.clerks.manage", "orders")), "test"));
    }

    private static String hash(String password) {
        return PasswordHash.hash(password.toCharArray(), 1_000);
    }

    @TempDir
    Path dir;

    private static byte[] xid(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static RunningBroker secured(Path dir) {
        return new RunningBroker(dir, RunningBroker.ENGINE, o -> o.withRealm(realm()));
    }

    private static Mikyu dial(RunningBroker broker, String user, String password) {
        return broker.dial("?connectTimeout=5s&user=" + user + "&password=" + password);
    }

    /** As alice: enqueues to orders, acks an orders task, appends to events.eu; prepared under {@code xid}. */
    private static void prepareAsAlice(Mikyu alice, byte[] xid) throws InterruptedException {
        LeasedTask t = alice.taskQueue("orders").dequeue(1, Duration.ofMinutes(5), Duration.ofSeconds(5), null)
                .get(0);
        alice.beginTransaction()
                .enqueue("orders", Task.of("next"))
                .ack("orders", t.token())
                .append("events.eu", Entry.of("shipped"))
                .prepare(xid, "mallory"); // the broker records who is connected, not this
    }

    @Test
    void onlyTheOwnerOrAUserWhoManagesEveryQueueOfABranchSeesAndDecidesIt() throws Exception {
        try (RunningBroker broker = secured(dir)) {
            broker.store().createTaskQueue("orders").enqueueBatch(java.util.List.of(Task.of("first"),
                    Task.of("second")));
            broker.store().createLog("events.eu");
            Mikyu alice = dial(broker, "alice", "a-pass");
            Mikyu bob = dial(broker, "bob", "b-pass");
            Mikyu ops = dial(broker, "ops", "o-pass");
            Mikyu clerk = dial(broker, "clerk", "c-pass");
            byte[] xid = xid("xa-alice");
            prepareAsAlice(alice, xid);

            PreparedTransaction branch = broker.store().inDoubtTransactions().get(0);
            assertThat(branch.owner()).as("the authenticated user, not the one the client named").isEqualTo("alice");
            assertThat(branch.queues()).containsExactly("events.eu", "orders");
            assertThat(alice.inDoubtTransactions()).containsExactly(branch);
            assertThat(alice.preparedTransactions()).containsExactly(xid);

            assertThat(bob.inDoubtTransactions()).as("someone else's branch is not listed").isEmpty();
            assertThat(bob.preparedTransactions()).isEmpty();
            assertThat(clerk.inDoubtTransactions()).as("manage on one of its two queues is not enough").isEmpty();
            assertThatThrownBy(() -> bob.commitPrepared(xid("xa-nobody")))
                    .isInstanceOf(TransactionNotFoundException.class)
                    .hasMessage("no transaction is prepared as xid " + HexFormat.of().formatHex(xid("xa-nobody")));
            assertThatThrownBy(() -> bob.commitPrepared(xid)).as("answered as an unknown xid is")
                    .isInstanceOf(TransactionNotFoundException.class)
                    .hasMessage("no transaction is prepared as xid " + HexFormat.of().formatHex(xid));
            assertThatThrownBy(() -> bob.rollbackPrepared(xid)).isInstanceOf(TransactionNotFoundException.class);
            assertThatThrownBy(() -> clerk.rollbackPrepared(xid)).isInstanceOf(TransactionNotFoundException.class);
            assertThat(broker.store().inDoubtTransactions()).as("still in doubt").containsExactly(branch);

            assertThat(ops.inDoubtTransactions()).as("an operator sees it, with its owner").containsExactly(branch);
            ops.rollbackPrepared(xid);
            assertThat(broker.store().inDoubtTransactions()).isEmpty();
            assertThat(broker.store().taskQueue("orders").counts().depth()).as("nothing acked, nothing added")
                    .isEqualTo(2);
            assertThat(broker.store().log("events.eu").endOffset()).isZero();

            byte[] again = xid("xa-alice-2");
            prepareAsAlice(alice, again);
            assertThatThrownBy(() -> bob.commitPrepared(again)).isInstanceOf(TransactionNotFoundException.class);
            alice.commitPrepared(again);
            assertThat(alice.inDoubtTransactions()).isEmpty();
            assertThat(broker.store().log("events.eu").endOffset()).isEqualTo(1);
            assertThat(broker.store().taskQueue("orders").counts().depth()).as("second acked, next added")
                    .isEqualTo(2);
            assertThatThrownBy(() -> alice.commitPrepared(again)).as("decided already")
                    .isInstanceOf(TransactionNotFoundException.class);
        }
    }

    @Test
    void theOwnerAndTimeOfABranchSurviveABrokerRestart() throws Exception {
        PreparedTransaction before;
        try (RunningBroker broker = secured(dir)) {
            broker.store().createTaskQueue("orders").enqueue(Task.of("first"));
            broker.store().createLog("events.eu");
            prepareAsAlice(dial(broker, "alice", "a-pass"), xid("xa-restart"));
            before = broker.store().inDoubtTransactions().get(0);
        }
        try (RunningBroker broker = secured(dir)) {
            Mikyu alice = dial(broker, "alice", "a-pass");
            assertThat(alice.inDoubtTransactions()).containsExactly(before);
            assertThat(before.owner()).isEqualTo("alice");
            assertThat(dial(broker, "bob", "b-pass").inDoubtTransactions()).isEmpty();
            alice.commitPrepared(xid("xa-restart"));
            assertThat(broker.store().taskQueue("orders").counts().ready()).isEqualTo(1);
            assertThat(broker.store().log("events.eu").endOffset()).isEqualTo(1);
        }
    }

    @Test
    void aBrokerWithoutUsersRecordsNoOwnerAndShowsEveryBranchToEveryone() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            broker.store().createLog("events");
            Mikyu one = broker.dial();
            Mikyu two = broker.dial();
            one.beginTransaction().append("events", Entry.of("x")).prepare(xid("xa-open"), "whoever");
            assertThat(two.inDoubtTransactions()).singleElement().satisfies(p -> {
                assertThat(p.owner()).isNull();
                assertThat(p.queues()).containsExactly("events");
            });
            assertThatThrownBy(() -> two.beginTransaction().append("events", Entry.of("y")).prepare(xid("xa-open")))
                    .isInstanceOf(TransactionExistsException.class);
            assertThatThrownBy(() -> two.rollbackPrepared(xid("xa-none")))
                    .isInstanceOf(TransactionNotFoundException.class);
            two.commitPrepared(xid("xa-open"));
            assertThat(one.inDoubtTransactions()).isEmpty();
        }
    }

    @Test
    void everyHandleOnAStoreTellsItsIdAndAnotherStoreHasAnother() {
        String id;
        try (RunningBroker broker = new RunningBroker(dir.resolve("one"))) {
            id = broker.store().storeId();
            assertThat(UUID.fromString(id).toString()).isEqualTo(id);
            assertThat(broker.dial().storeId()).isEqualTo(id);
            assertThat(broker.dial("?streams=false").storeId()).isEqualTo(id);
            try (RunningBroker other = new RunningBroker(dir.resolve("two"))) {
                assertThat(other.dial().storeId()).isNotEqualTo(id);
            }
        }
        try (RunningBroker again = secured(dir.resolve("one"))) {
            assertThat(dial(again, "bob", "b-pass").storeId()).as("after a restart, for any user").isEqualTo(id);
        }
    }

    @Test
    void theStoreIdTravelsInTheHelloOnlyToClientsThatAskForFeatureXa() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            ByteBuf old = helloOk(broker, Protocol.FEATURE_STREAMS | Protocol.FEATURE_ENCODED_BATCHES);
            assertThat(Fields.readU16(old)).isEqualTo(Protocol.VERSION);
            assertThat(Fields.readLong(old)).isEqualTo(Protocol.FEATURE_STREAMS | Protocol.FEATURE_ENCODED_BATCHES);
            old.skipBytes(8);
            Fields.readString(old);
            assertThat(old.readableBytes()).as("the HELLO_OK an older client has always read").isZero();

            ServerHello xa = ServerHello.read(helloOk(broker, Protocol.FEATURES));
            assertThat(xa.features() & Protocol.FEATURE_XA).isNotZero();
            assertThat(xa.storeId()).isEqualTo(broker.store().storeId());
        }
    }

    @Test
    void aBrokerWithoutFeatureXaIsReportedAsTooOld() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread oldBroker = new Thread(() -> {
                try (Socket s = listener.accept()) {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    in.readFully(new byte[in.readInt()]);
                    ByteBuf frame = FrameDescriptor.writeHeader(Unpooled.buffer(), FrameDescriptor.HELLO_OK, 0, 0);
                    new ServerHello(Protocol.VERSION, 0, 1 << 20, 10_000, "old", null).write(frame);
                    writeFrame(s, frame);
                    in.read(); // until the client goes
                } catch (IOException ignored) {
                    // the client went
                }
            });
            oldBroker.start();
            try (Mikyu client = Mikyu.dial("tcp://127.0.0.1:" + listener.getLocalPort())) {
                assertThatThrownBy(client::storeId).isInstanceOf(UnsupportedOperationException.class)
                        .hasMessageContaining("too old");
                assertThatThrownBy(client::inDoubtTransactions)
                        .isInstanceOf(UnsupportedOperationException.class);
            }
            oldBroker.join(10_000);
        }
    }

    /** The body of the HELLO_OK a raw client asking for {@code features} gets. */
    private static ByteBuf helloOk(RunningBroker broker, long features) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", broker.endpoint().uri().getPort())) {
            socket.setSoTimeout(10_000);
            ByteBuf frame = FrameDescriptor.writeHeader(Unpooled.buffer(), FrameDescriptor.HELLO, 0, 0);
            new ClientHello(Protocol.VERSION, features, 1 << 20, 10_000, "raw", null, null).write(frame);
            writeFrame(socket, frame);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] answer = new byte[in.readInt()];
            in.readFully(answer);
            assertThat(answer[0]).isEqualTo((byte) FrameDescriptor.HELLO_OK);
            return Unpooled.wrappedBuffer(answer).skipBytes(FrameDescriptor.HEADER_BYTES);
        }
    }

    private static void writeFrame(Socket socket, ByteBuf frame) throws IOException {
        byte[] bytes = new byte[4 + frame.readableBytes()];
        Unpooled.wrappedBuffer(bytes).writerIndex(0).writeInt(frame.readableBytes()).writeBytes(frame);
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    @Test
    void theInDoubtMetersAreServedOnTheMetricsEndpoint() throws Exception {
        PrometheusMeterRegistry registry = MetricsEndpoint.newRegistry();
        EngineConfig engine = EngineConfig.builder().meterRegistry(registry).build();
        try (RunningBroker broker = new RunningBroker(dir, engine, o -> o);
             MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry)) {
            String metrics = "http://127.0.0.1:" + endpoint.port() + "/metrics";
            assertThat(get(metrics)).contains("mikyu_engine_transactions_indoubt 0.0")
                    .contains("mikyu_engine_transactions_indoubt_age_seconds 0.0");
            broker.store().createLog("events");
            Mikyu client = broker.dial();
            client.beginTransaction().append("events", Entry.of("x")).prepare(xid("xa-m"));
            assertThat(get(metrics)).contains("mikyu_engine_transactions_indoubt 1.0");
            await("the age grows").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                    .until(() -> ageSeconds(get(metrics)) > 0);
            client.commitPrepared(xid("xa-m"));
            assertThat(get(metrics)).contains("mikyu_engine_transactions_indoubt 0.0")
                    .contains("mikyu_engine_transactions_indoubt_age_seconds 0.0");
        } finally {
            registry.close();
        }
    }

    private static double ageSeconds(String scrape) {
        for (String line : scrape.split("\n")) {
            if (line.startsWith("mikyu_engine_transactions_indoubt_age_seconds ")) {
                return Double.parseDouble(line.substring(line.indexOf(' ') + 1));
            }
        }
        throw new AssertionError("no age gauge in " + scrape);
    }

    private static String get(String uri) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(uri)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
