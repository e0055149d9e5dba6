package io.mikyu.broker.server;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.Protocol;
import io.mikyu.transport.Endpoint;
import io.mikyu.transport.Transport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What only a dialled store does: connections, many calls in flight, frames, leases of dead clients, sockets. */
class RemoteClientTest {

    @TempDir
    Path dir;

    @Test
    void dialingWhereNoBrokerListensFailsAsClosed() {
        assertThatThrownBy(() -> Mikyu.dial("tcp://127.0.0.1:1?connectTimeout=2s"))
                .isInstanceOf(StoreClosedException.class).hasMessageContaining("127.0.0.1:1");
    }

    @Test
    void anUnknownSchemeNamesTheClientArtifactOrTheSchemes() {
        assertThatThrownBy(() -> Mikyu.dial("http://example/")).isInstanceOf(MikyuException.class)
                .hasMessageContaining("io.mikyu:mikyu-client");
        assertThatThrownBy(() -> Mikyu.dial("tcp://127.0.0.1:7420?colour=blue"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("colour");
    }

    @Test
    void appendsTravelInTheEnginesBatchLayoutAndAMalformedBatchIsRefusedWithoutHarm() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            Mikyu client = broker.dial();
            LogQueue events = client.createLog("events");
            long first = events.appendBatch(List.of(Entry.of("a"),
                    Entry.keyed("k", "b").withHeaders(io.mikyu.engine.Headers.of("type", "order"))));
            assertThat(first).isZero();
            Record b = broker.store().log("events").read(1);
            assertThat(b.key()).isEqualTo("k".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(b.headers().getString("type")).isEqualTo("order");

            byte[] bad = io.mikyu.engine.spi.BatchCodec.encode(List.of(Entry.of("c"))).bytes();
            bad[bad.length - 1] ^= 1;
            assertThatThrownBy(() -> events.appendEncoded(io.mikyu.engine.EncodedBatch.wrap(bad),
                    io.mikyu.engine.Durability.ASYNC)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("CRC32C");
            assertThat(events.endOffset()).isEqualTo(2);
            assertThat(events.append(Entry.of("d"))).isEqualTo(2);
        }
    }

    @Test
    void readsTravelAsStoredBatchesAndABatchLargerThanAFrameComesRecordByRecord() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            LogQueue local = broker.store().createLog("events");
            // ~200 KiB in one batch: more than the 64 KiB frames this client agrees on
            local.appendBatch(java.util.stream.IntStream.range(0, 200)
                    .mapToObj(i -> Entry.of(i + ":" + "x".repeat(1000))).toList());
            local.appendBatch(List.of(Entry.of("200:small"), Entry.of("201:small")));
            try (Mikyu client = Mikyu.dial(broker.uri() + "?maxFrameBytes=65536")) {
                LogQueue events = client.log("events");
                List<Record> all = new ArrayList<>();
                long next = 0;
                while (next < 202) {
                    List<Record> got = events.poll(next, 1000, Duration.ofSeconds(5));
                    assertThat(got).isNotEmpty();
                    all.addAll(got);
                    next = got.get(got.size() - 1).offset() + 1;
                }
                assertThat(all).extracting(r -> r.payloadAsString().split(":")[0]).containsExactlyElementsOf(
                        java.util.stream.IntStream.range(0, 202).mapToObj(Integer::toString).toList());

                List<Long> offsets = new ArrayList<>();
                assertThat(events.poll(150, 10, Duration.ZERO, r -> offsets.add(r.offset()))).isEqualTo(160);
                assertThat(offsets).containsExactly(150L, 151L, 152L, 153L, 154L, 155L, 156L, 157L, 158L, 159L);
                offsets.clear();
                assertThat(events.poll(201, 10, Duration.ZERO, r -> offsets.add(r.offset()))).isEqualTo(202);
                assertThat(offsets).containsExactly(201L);
                assertThat(events.read(0, 3, 1)).as("a byte limit still gives one record").hasSize(1);
                assertThat(events.poll(202, 10, Duration.ofMillis(50), r -> offsets.add(r.offset())))
                        .as("nothing new: where it started").isEqualTo(202);
            }
        }
    }

    @Test
    void largeBatchesFromManyThreadsAreWrittenFromTheirFramesIntactInOrderAndReleaseThem() throws Exception {
        io.netty.buffer.PooledByteBufAllocatorMetric pool = io.netty.buffer.PooledByteBufAllocator.DEFAULT.metric();
        long batches = 8 * 64;
        try (RunningBroker broker = new RunningBroker(dir)) {
            Mikyu client = broker.dial();
            LogQueue events = client.createLog("events");
            long directBefore = pool.usedDirectMemory();
            ExecutorService threads = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int thread = t;
                    done.add(threads.submit(() -> {
                        for (int i = 0; i < batches / 8; i++) {
                            int batch = i;
                            // 64 records of 1 KiB: the size a throughput-minded producer sends
                            events.appendBatch(java.util.stream.IntStream.range(0, 64).mapToObj(r -> Entry.keyed(
                                    thread + ":" + batch + ":" + r, "x".repeat(1024))).toList(),
                                    i % 16 == 0 ? Durability.SYNC : Durability.ASYNC);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdown();
            }
            assertThat(events.endOffset()).isEqualTo(batches * 64);
            assertThat(pool.usedDirectMemory() - directBefore)
                    .as("frames of %,d bytes of batches are not held after their appends", batches * 64 * 1024)
                    .isLessThan(16L << 20);
        }
        try (Mikyu reopened = Mikyu.open(dir, RunningBroker.ENGINE)) {
            long[] next = new long[8];
            int[] record = new int[8];
            for (Record r : reopened.log("events").read(0, (int) (batches * 64), Long.MAX_VALUE)) {
                String[] key = new String(r.key(), StandardCharsets.US_ASCII).split(":");
                int thread = Integer.parseInt(key[0]);
                assertThat(Long.parseLong(key[1]) * 64 + Integer.parseInt(key[2])).as("thread %d's order", thread)
                        .isEqualTo(next[thread] * 64 + record[thread]);
                assertThat(r.payload()).hasSize(1024);
                if (++record[thread] == 64) {
                    record[thread] = 0;
                    next[thread]++;
                }
            }
            assertThat(next).containsOnly(batches / 8);
        }
    }

    @Test
    void aTailingReadersPollWithSomethingToAnswerNeedsNoWaitingThread() throws Exception {
        // One waiting call at a time: a poll that has to wait takes the broker's only waiting thread.
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE, o -> new BrokerOptions(o.endpoints(),
                o.maxFrameBytes(), o.heartbeat(), o.workerThreads(), 1, o.shutdownGrace(), o.serverName(), o.realm(),
                o.tls(), o.meterRegistry(), o.admission()))) {
            Mikyu client = broker.dial();
            LogQueue quiet = client.createLog("quiet");
            LogQueue events = client.createLog("events");
            events.appendBatch(List.of(Entry.of("a"), Entry.of("b"), Entry.of("c")));
            CompletableFuture<List<Record>> waiting = CompletableFuture.supplyAsync(() -> {
                while (true) {
                    try {
                        return quiet.poll(0, 10, Duration.ofSeconds(20));
                    } catch (MikyuException e) {
                        // a probe below held the waiting thread: ask again
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            boolean busy = false;
            while (!busy && System.nanoTime() < deadline) {
                try {
                    quiet.poll(0, 10, Duration.ofMillis(50));
                } catch (MikyuException e) {
                    busy = e.getMessage().contains("busy");
                }
            }
            assertThat(busy).as("a second waiting poll is refused while the first waits").isTrue();

            assertThat(events.poll(1, 10, Duration.ofSeconds(5))).extracting(Record::payloadAsString)
                    .containsExactly("b", "c");
            List<String> seen = new ArrayList<>();
            assertThat(events.poll(0, 10, Duration.ofSeconds(5), r -> seen.add(r.toRecord().payloadAsString()))).isEqualTo(3);
            assertThat(seen).containsExactly("a", "b", "c");

            quiet.append(Entry.of("now"));
            assertThat(waiting.get(10, TimeUnit.SECONDS)).extracting(Record::payloadAsString).containsExactly("now");
        }
    }

    @Test
    void manyThreadsShareOneConnectionWithCallsInFlightTogether() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            Mikyu client = broker.dial();
            LogQueue events = client.createLog("events");
            ExecutorService threads = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int thread = t;
                    done.add(threads.submit(() -> {
                        for (int i = 0; i < 100; i++) {
                            events.append(Entry.of(thread + "-" + i));
                        }
                    }));
                }
                for (Future<?> f : done) {
                    f.get(30, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdown();
            }
            assertThat(events.endOffset()).isEqualTo(800);
            assertThat(events.read(0, 1000)).extracting(Record::payloadAsString).doesNotHaveDuplicates().hasSize(800);
        }
    }

    @Test
    void aResultLargerThanAFrameArrivesWholeInSeveralFrames() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE, o -> o.withMaxFrameBytes(64 << 10))) {
            Mikyu client = broker.dial();
            LogQueue events = client.createLog("events");
            TaskQueue jobs = client.createTaskQueue("jobs");
            for (int i = 0; i < 40; i++) {
                events.append(Entry.of(new byte[10_000]));
                jobs.enqueue(Task.of(new byte[10_000]));
            }
            assertThat(events.read(0, 100)).hasSize(40);
            assertThat(jobs.dequeue(100, Duration.ofMinutes(1), Duration.ZERO, null)).hasSize(40);
            assertThat(jobs.counts().inFlight()).isEqualTo(40);
        }
    }

    @Test
    void aRequestLargerThanTheAgreedFrameIsRefusedBeforeItIsSent() {
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE, o -> o.withMaxFrameBytes(64 << 10))) {
            Mikyu client = broker.dial();
            LogQueue events = client.createLog("events");
            List<Entry> batch = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                batch.add(Entry.of(new byte[10_000]));
            }
            assertThatThrownBy(() -> events.appendBatch(batch)).isInstanceOf(RecordTooLargeException.class)
                    .hasMessageContaining("frame limit");
            assertThat(events.append(Entry.of("still connected"))).isZero();
        }
    }

    @Test
    void aFilterWithoutAnExpressionCannotLeaveTheProcess() {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue jobs = broker.dial().createTaskQueue("jobs");
            assertThatThrownBy(() -> jobs.browse(10, task -> true)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("expression");
        }
    }

    @Test
    void aDeadClientsLeasesRunOutAndItsTasksGoToTheNextConsumer() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            Mikyu producer = broker.dial();
            producer.createTaskQueue("jobs", TaskQueueConfig.defaults().withBackoff(Duration.ZERO, 1.0,
                    Duration.ZERO)).enqueue(Task.of("work"));
            Mikyu doomed = Mikyu.dial(broker.uri());
            LeasedTask taken = doomed.taskQueue("jobs").dequeue(1, Duration.ofMillis(300), Duration.ofSeconds(1),
                    null).get(0);
            doomed.close();

            LeasedTask again = broker.dial().taskQueue("jobs").dequeue(Duration.ofSeconds(5));
            assertThat(again.id()).isEqualTo(taken.id());
            assertThat(again.attempt()).isEqualTo(2);
        }
    }

    @Test
    void closingTheClientFailsItsWaitingCallsAsClosed() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            Mikyu client = Mikyu.dial(broker.uri());
            LogQueue events = client.createLog("events");
            try (BlockedCall<List<Record>> polling = BlockedCall.start(() -> events.poll(0, 10,
                    Duration.ofMinutes(10)))) {
                await("the poll waiting on the broker").atMost(Duration.ofSeconds(30))
                        .until(() -> broker.server().waitingCalls() == 1);
                client.close();
                assertThatThrownBy(() -> polling.get(Duration.ofSeconds(30)))
                        .hasCauseInstanceOf(StoreClosedException.class);
            }
            assertThatThrownBy(() -> events.endOffset()).isInstanceOf(StoreClosedException.class);
        }
    }

    @Test
    void aQuietConnectionIsKeptAliveByHeartbeats() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE,
                o -> o.withHeartbeat(Duration.ofMillis(100)));
             LoopbackProxy network = new LoopbackProxy(broker.endpoint().port());
             Mikyu client = Mikyu.dial(network.uri())) {
            client.createLog("events");
            // Nothing but heartbeats on the connection for twice as many intervals as a side waits for a word
            // from its peer before it takes it for dead.
            byte[] ping = pingFrame();
            await("the broker's heartbeats").atMost(Duration.ofSeconds(30))
                    .until(() -> network.timesRelayedDownstream(ping) >= 2 * Protocol.MISSED_HEARTBEATS);
            assertThat(client.isOpen()).isTrue();
            assertThat(client.list(QueueKind.LOG)).containsExactly("events");
        }
    }

    /** A PING as it goes on the wire, length first. */
    private static byte[] pingFrame() {
        ByteBuf header = FrameDescriptor.writeHeader(Unpooled.buffer(), FrameDescriptor.PING, 0,
                FrameDescriptor.CONNECTION_ID);
        byte[] frame = new byte[4 + header.readableBytes()];
        Unpooled.wrappedBuffer(frame).writerIndex(0).writeInt(header.readableBytes()).writeBytes(header);
        return frame;
    }

    @Test
    void aUnixSocketServesTheSameStoreAsTcp() throws Exception {
        assumeTrue(Transport.best() == Transport.EPOLL, "native epoll is not available: "
                + Transport.epollUnavailableReason());
        Path socket = dir.resolve("mikyu.sock");
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"), RunningBroker.ENGINE, o -> o,
                List.of(Endpoint.parse("tcp://127.0.0.1:0"), Endpoint.parse("unix://" + socket)))) {
            try (Mikyu overUnix = Mikyu.dial("unix://" + socket)) {
                overUnix.createLog("events").append(Entry.of("over a socket file"));
                assertThat(overUnix.location()).isEqualTo("unix://" + socket);
            }
            assertThat(broker.dial().log("events").read(0).payloadAsString()).isEqualTo("over a socket file");
        }
    }

    @Test
    void withReconnectAWaitingDequeueAndASharedGroupOutliveABrokerRestart() throws Exception {
        Path data = dir.resolve("data");
        RunningBroker broker = new RunningBroker(data);
        String uri = broker.uri();
        try (Mikyu client = Mikyu.dial(uri + "?reconnect=20s")) {
            TaskQueue jobs = client.createTaskQueue("jobs");
            LogQueue events = client.createLog("events");
            io.mikyu.engine.SharedGroup workers = events.sharedGroup("workers",
                    io.mikyu.engine.SharedGroupConfig.defaults());
            BlockedCall<List<LeasedTask>> waiting = BlockedCall.start(
                    () -> jobs.dequeue(1, Duration.ofSeconds(30), Duration.ofMinutes(10), null));
            BrokerServer before = broker.server();
            await("the dequeue's stream open on the broker").atMost(Duration.ofSeconds(30))
                    .until(() -> before.openStreams() == 1);
            broker.close();
            broker = new RunningBroker(data, RunningBroker.ENGINE, o -> o, List.of(Endpoint.parse(uri)));
            broker.store().taskQueue("jobs").enqueue(Task.of("after the restart"));
            assertThat(waiting.get(Duration.ofSeconds(60))).extracting(LeasedTask::payloadAsString)
                    .containsExactly("after the restart");
            events.append(Entry.of("e"));
            assertThat(workers.fetch(10, Duration.ofSeconds(30), Duration.ofSeconds(5)))
                    .extracting(d -> d.record().payloadAsString()).containsExactly("e");
            assertThat(client.isOpen()).isTrue();
        } finally {
            broker.close();
        }
    }

    @Test
    void withoutReconnectALostBrokerClosesTheClient() throws Exception {
        RunningBroker broker = new RunningBroker(dir);
        Mikyu client = Mikyu.dial(broker.uri());
        client.createLog("events");
        broker.close();
        await("the client closed").atMost(Duration.ofSeconds(30)).until(() -> !client.isOpen());
        assertThatThrownBy(() -> client.log("events")).isInstanceOf(StoreClosedException.class);
        client.close();
    }
}
