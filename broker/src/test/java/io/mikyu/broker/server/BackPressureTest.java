package io.mikyu.broker.server;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.SteppableTimeSource;
import io.mikyu.protocol.ClientHello;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Protocol;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Slow readers cannot make the broker run out of memory: a connection whose outbound buffer is
 * above the high watermark is not read and not pushed to, and requests that come up for it meanwhile wait without
 * producing answers. Each test drives a raw socket that asks for much and never reads, while a well-behaved client
 * keeps being served.
 */
@Timeout(180)
class BackPressureTest {

    /** The most a slow reader may cost: the watermark, plus answers built at once by the 32 workers (1 MiB each). */
    private static final long READ_BOUND = BrokerServer.WRITE_HIGH_WATERMARK + 32L * (1 << 20) + (4 << 20);
    /** For a stream: the watermark plus one batch. */
    private static final long STREAM_BOUND = BrokerServer.WRITE_HIGH_WATERMARK + PushStream.MAX_BATCH_BYTES
            + (1 << 20);
    private static final long STREAM_LEASE_MILLIS = 3_000;

    /** Pending outbound bytes that show the broker filled a connection up to its watermark. */
    private static final long FILLED = BrokerServer.WRITE_HIGH_WATERMARK / 2;
    private static final Duration AT_MOST = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** The store's clock: the leases of what a stream pushed end when the test moves it. */
    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    @Test
    void aClientThatAsksForMuchAndNeverReadsCostsTheBrokerABoundedAmount() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir);
             OutboundWatch outbound = new OutboundWatch(broker.server())) {
            LogQueue log = broker.store().createLog("big");
            List<Entry> entries = new ArrayList<>();
            for (int i = 0; i < 1024; i++) {
                entries.add(Entry.of(new byte[1024]));
            }
            log.appendBatch(entries, Durability.ASYNC);     // 1 MiB: each READ below is answered with all of it
            int requests = 4000;                            // 4 GB asked for in all
            try (Socket socket = rawClient(broker, 0)) {
                OutputStream out = socket.getOutputStream();
                for (int id = 1; id <= requests; id++) {
                    out.write(frame(Op.READ.code(), id, b -> {
                        io.mikyu.protocol.Fields.writeString(b, "big");
                        b.writeLong(0).writeInt(100_000).writeLong(64L << 20);
                    }));
                }
                out.flush();
                // Watched from the start until the connection filled up and another client was served meanwhile.
                await("the connection filled up").atMost(AT_MOST).until(() -> outbound.peak() > FILLED);
                assertOthersServed(broker);
                assertThat(outbound.peak()).as("bytes held for the client that does not read")
                        .isLessThan(READ_BOUND);
            }
            await().atMost(AT_MOST).untilAsserted(() -> assertThat(broker.server().pendingOutboundBytes())
                    .as("released when the connection closed").isZero());
        }
    }

    @Test
    void aStreamStopsPushingToAConnectionThatDoesNotRead() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE.toBuilder().timeSource(clock).build(),
                o -> o);
             OutboundWatch outbound = new OutboundWatch(broker.server())) {
            TaskQueue jobs = broker.store().createTaskQueue("jobs");
            for (int i = 0; i < 40; i++) {
                List<Task> batch = new ArrayList<>();
                for (int j = 0; j < 500; j++) {
                    batch.add(Task.of(new byte[1024]));
                }
                jobs.enqueueBatch(batch, Durability.ASYNC);      // 20 MiB in all
            }
            try (Socket socket = rawClient(broker, Protocol.FEATURE_STREAMS)) {
                socket.getOutputStream().write(frame(Op.STREAM_TASKS.code(), 1, b -> {
                    io.mikyu.protocol.Fields.writeString(b, "jobs");
                    b.writeInt(7);                              // the stream's id
                    b.writeLong(STREAM_LEASE_MILLIS);            // lease (renewed while the stream lives)
                    Values.writeFilter(b, null);
                    b.writeInt(65_536).writeLong(1L << 30);      // all the credit there is
                }));
                await("the connection filled up").atMost(AT_MOST).until(() -> outbound.peak() > FILLED);
                assertOthersServed(broker);
                assertThat(outbound.peak()).as("bytes pushed and not taken by the socket").isLessThan(STREAM_BOUND);
                long leased = jobs.counts().inFlight();
                assertThat(leased).as("tasks leased to the stream").isLessThan(20_000);
            }
            // The connection ended without the client's word, so the broker cannot know what its application took:
            // everything pushed stays leased until its lease ends, then comes back counted (delivered once), so
            // that a second delivery is flagged redelivered and counts towards the dead-letter queue.
            await("the stream closed").atMost(AT_MOST).until(() -> broker.server().openStreams() == 0);
            assertThat(jobs.counts().inFlight()).as("leased until the leases end").isPositive();
            clock.advance(Duration.ofMillis(STREAM_LEASE_MILLIS));
            await("the leases ended").atMost(AT_MOST).until(() -> jobs.counts().inFlight() == 0);
            clock.advance(TaskQueueConfig.defaults().backoff(1));
            // Every task is there once: those the stream pushed counted as delivered once (and back after the
            // queue's retry backoff), the others not.
            java.util.Map<Integer, Integer> byAttempt = new java.util.TreeMap<>();
            List<LeasedTask> taken;
            while (!(taken = jobs.dequeue(1_000, Duration.ofSeconds(30), Duration.ofSeconds(5), null)).isEmpty()) {
                for (LeasedTask t : taken) {
                    byAttempt.merge(t.attempt(), 1, Integer::sum);
                }
            }
            assertThat(byAttempt.keySet()).containsExactly(1, 2);
            assertThat(byAttempt.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(20_000);
        }
    }

    /** A well-behaved client gets round trips and tasks while the slow one is stuck. */
    private static void assertOthersServed(RunningBroker broker) throws InterruptedException {
        Mikyu other = broker.dial();
        TaskQueue work = other.getOrCreateTaskQueue("other", TaskQueueConfig.defaults());
        for (int i = 0; i < 50; i++) {
            work.enqueue(Task.of("w" + i));
            List<LeasedTask> got = work.dequeue(1, Duration.ofSeconds(30), AT_MOST, null);
            assertThat(got).as("round trip %d of another client", i).hasSize(1);
            work.ack(got.get(0).token());
        }
        other.close();
    }

    /** A socket that shook hands (reading only the HELLO_OK) and will never read again. */
    private static Socket rawClient(RunningBroker broker, long features) throws IOException {
        Socket socket = new Socket("127.0.0.1", broker.endpoint().uri().getPort());
        socket.setReceiveBufferSize(64 << 10);
        socket.getOutputStream().write(frame(FrameDescriptor.HELLO, 0, b -> new ClientHello(Protocol.VERSION,
                features, 16 << 20, 10_000, "slow", null, null).write(b)));
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] hello = new byte[in.readInt()];
        in.readFully(hello);
        assertThat(hello[0]).isEqualTo((byte) FrameDescriptor.HELLO_OK);
        return socket;
    }

    private static byte[] frame(int type, int id, Consumer<ByteBuf> body) {
        ByteBuf frame = FrameDescriptor.writeHeader(Unpooled.buffer(), type, 0, id);
        body.accept(frame);
        ByteBuf out = Unpooled.buffer().writeInt(frame.readableBytes()).writeBytes(frame);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return bytes;
    }
}
