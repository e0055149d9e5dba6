package io.mikyu.broker.server;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.support.SteppableTimeSource;
import io.mikyu.protocol.ClientHello;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Protocol;
import io.mikyu.protocol.StreamDescriptor;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Random, truncated and oversized frames, mixed with valid ones, over many connections to one broker, while a
 * well-behaved client makes append/read round trips beside them. Every one of its requests must be answered
 * correctly throughout, and the broker's heap must end where it began.
 *
 * <p>{@code -Dmikyu.fuzz.frames=N} sets how many frames are sent (default 100,000, about 10 s on 2 cores);
 * {@code -Dmikyu.fuzz.seed=S} repeats a run.
 */
class FrameFuzzTest {

    private static final int FRAMES = Integer.getInteger("mikyu.fuzz.frames", 100_000);
    private static final long SEED = Long.getLong("mikyu.fuzz.seed", System.nanoTime());
    private static final int THREADS = 4;
    private static final int FUZZ_TASKS = 2000;
    /** The lease of the fuzzers' streams; what they pushed is leased no longer than this once they are closed. */
    private static final long STREAM_LEASE_MILLIS = 2_000;
    private static final Duration AT_MOST = Duration.ofSeconds(30);
    /** Valid frames a connection sends before the one that breaks it (up to). */
    private static final int MOST_VALID_PER_CONNECTION = 120;
    private static final int MAX_FRAME_BYTES = 1 << 20;

    @TempDir
    Path dir;

    /** The store's clock: the leases of what the fuzzers' streams were pushed end when the test moves it. */
    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    @Test
    void theBrokerSurvivesMalformedFramesAndKeepsServingItsOtherClients() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE.toBuilder().timeSource(clock).build(),
                o -> o.withMaxFrameBytes(MAX_FRAME_BYTES).withHeartbeat(Duration.ofSeconds(2)))) {
            Mikyu store = broker.store();
            store.createLog("fuzz");
            List<Task> tasks = new ArrayList<>();
            for (int i = 0; i < FUZZ_TASKS; i++) {
                tasks.add(Task.of("fuzz task " + i));
            }
            store.createTaskQueue("fuzz-tasks").enqueueBatch(tasks);
            LogQueue bystander = broker.dial().createLog("bystander");
            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            long heapBefore = usedHeapAfterGc(memory);

            AtomicBoolean fuzzing = new AtomicBoolean(true);
            AtomicLong roundTrips = new AtomicLong();
            AtomicReference<Throwable> bystanderFailure = new AtomicReference<>();
            Thread steady = new Thread(() -> roundTrips(bystander, fuzzing, roundTrips, bystanderFailure),
                    "fuzz-bystander");
            steady.start();

            AtomicLong sent = new AtomicLong();
            AtomicLong connections = new AtomicLong();
            AtomicLong peakHeap = new AtomicLong();
            int port = broker.endpoint().uri().getPort();
            ExecutorService fuzzers = Executors.newFixedThreadPool(THREADS);
            long start = System.nanoTime();
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    SplittableRandom random = new SplittableRandom(SEED + t);
                    done.add(fuzzers.submit(() -> {
                        while (sent.get() < FRAMES) {
                            sent.addAndGet(fuzzOneConnection(port, random));
                            connections.incrementAndGet();
                            if ((connections.get() & 63) == 0) {
                                peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                fuzzers.shutdownNow();
                fuzzing.set(false);
                steady.join(30_000);
            }
            long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();

            assertThat(bystanderFailure.get()).as("the well-behaved client's failure (seed %d)", SEED).isNull();
            assertThat(roundTrips.get()).as("round trips of the well-behaved client in %d s", seconds)
                    .isGreaterThan(10);
            assertThat(sent.get()).isGreaterThanOrEqualTo(FRAMES);
            // Still serving: a new client connects and sees every record the bystander wrote.
            try (Mikyu fresh = Mikyu.dial(broker.uri())) {
                assertThat(fresh.log("bystander").endOffset()).isEqualTo(roundTrips.get());
                assertThat(fresh.list(QueueKind.LOG)).contains("fuzz", "bystander");
            }
            // Nothing a closed connection left behind stays reachable: the heap is back where it was.
            // Streams of closed connections are closed (and stop renewing), and what they pushed is leased only until
            // its lease ends (the broker cannot tell what their clients took, so it waits for the lease, then counts
            // it delivered): once the last stream closed, a lease later nothing may be leased any more.
            await().atMost(AT_MOST).untilAsserted(() -> assertThat(broker.server().openStreams())
                    .as("streams left open (seed %d)", SEED).isZero());
            clock.advance(Duration.ofMillis(STREAM_LEASE_MILLIS));
            await().atMost(AT_MOST).untilAsserted(() -> assertThat(store.taskQueue("fuzz-tasks").counts().inFlight())
                    .as("tasks left leased after their leases ended (seed %d)", SEED).isZero());
            TaskCounts left = store.taskQueue("fuzz-tasks").counts();
            assertThat(left.ready() + left.scheduled() + store.taskQueue("fuzz-tasks/dlq").counts().depth())
                    .as("fuzz tasks, none lost (seed %d)", SEED).isEqualTo(FUZZ_TASKS);
            await().atMost(AT_MOST).untilAsserted(() -> assertThat(usedHeapAfterGc(memory) - heapBefore)
                    .as("heap growth after %d connections (peak %d MiB, seed %d)", connections.get(),
                            peakHeap.get() >> 20, SEED).isLessThan(48L << 20));
        }
    }

    /** Round trips of a client that keeps to the protocol: each append read back and compared. */
    private static void roundTrips(LogQueue log, AtomicBoolean running, AtomicLong count,
                                   AtomicReference<Throwable> failure) {
        try {
            while (running.get()) {
                String payload = "steady-" + count.get();
                long offset = log.append(Entry.of(payload), Durability.ASYNC);
                if (offset != count.get()) {
                    throw new AssertionError("append " + count.get() + " got offset " + offset);
                }
                String read = log.read(offset).payloadAsString();
                if (!read.equals(payload)) {
                    throw new AssertionError("read " + offset + " gave '" + read + "', not '" + payload + "'");
                }
                count.incrementAndGet();
            }
        } catch (Throwable e) {
            failure.set(e);
        }
    }

    /** One connection: maybe a hello, some valid requests, then something malformed. Returns the frames sent. */
    private static int fuzzOneConnection(int port, SplittableRandom random) throws IOException {
        ByteBuf out = Unpooled.buffer();
        int frames = 0;
        int kind = random.nextInt(9);
        if (kind == 0) {
            // Random bytes from the first byte on.
            byte[] junk = new byte[1 + random.nextInt(4096)];
            random.nextBytes(junk);
            out.writeBytes(junk);
            frames = 1;
        } else if (kind == 1) {
            // A hello cut short.
            ByteBuf hello = frame(FrameDescriptor.HELLO, 0, b -> helloBody(b));
            out.writeBytes(hello, 0, 1 + random.nextInt(hello.readableBytes() - 1));
            frames = 1;
        } else {
            out.writeBytes(frame(FrameDescriptor.HELLO, 0, FrameFuzzTest::helloBody));
            int valid = random.nextInt(MOST_VALID_PER_CONNECTION);
            for (int i = 0; i < valid; i++) {
                out.writeBytes(validRequest(random, i + 1));
            }
            frames = 1 + valid + 1;
            switch (kind) {
                case 2 -> { // a real request type with a random body
                    Op[] ops = Op.values();
                    byte[] body = new byte[random.nextInt(256)];
                    random.nextBytes(body);
                    out.writeBytes(frame(ops[random.nextInt(ops.length)].code(), 9999, b -> b.writeBytes(body)));
                }
                case 3 -> // a length beyond the agreed maximum, or negative
                    out.writeInt(random.nextBoolean() ? MAX_FRAME_BYTES + 1 + random.nextInt(1 << 20)
                            : -1 - random.nextInt(Integer.MAX_VALUE));
                case 4 -> { // a valid request cut short, then the connection closes
                    ByteBuf whole = validRequest(random, 9999);
                    out.writeBytes(whole, 0, 1 + random.nextInt(whole.readableBytes() - 1));
                }
                case 5 -> { // a random header: any type, flags and id, with random bytes
                    byte[] body = new byte[random.nextInt(64)];
                    random.nextBytes(body);
                    out.writeInt(FrameDescriptor.HEADER_BYTES + body.length).writeByte(random.nextInt(256))
                            .writeByte(random.nextInt(256)).writeInt(random.nextInt()).writeBytes(body);
                }
                case 8 -> { // a stream frame out of bounds
                    switch (random.nextInt(5)) {
                        case 0 -> out.writeBytes(frame(FrameDescriptor.CREDIT, 1 + random.nextInt(4),
                                b -> b.writeInt(-random.nextInt(3))));                 // no credit, or negative
                        case 1 -> out.writeBytes(frame(FrameDescriptor.CREDIT, 0, b -> b.writeInt(1)));
                        case 2 -> out.writeBytes(streamOpen(9999, 1 + random.nextInt(4),
                                random.nextBoolean() ? 0 : StreamDescriptor.MAX_CREDIT + 1, 1 << 20));
                        case 3 -> out.writeBytes(streamOpen(9999, 1 + random.nextInt(4), 4,
                                random.nextBoolean() ? 0 : StreamDescriptor.MAX_CREDIT_BYTES + 1));
                        default -> { // credit for more than was ever pushed
                            out.writeBytes(streamOpen(9998, 77, 2, 1 << 20));
                            out.writeBytes(frame(FrameDescriptor.CREDIT, 77, b -> b.writeInt(1000)));
                        }
                    }
                }
                case 6 -> { // a count no frame could hold
                    out.writeBytes(frame(Op.APPEND.code(), 9999, b -> {
                        Fields.writeString(b, "fuzz");
                        b.writeByte(1);
                        b.writeInt(Integer.MAX_VALUE);
                    }));
                }
                default -> { // bytes left over after a valid request
                    ByteBuf extra = validRequest(random, 9999);
                    int length = extra.getInt(0);
                    extra.setInt(0, length + 3);
                    out.writeBytes(extra).writeBytes(new byte[] {1, 2, 3});
                }
            }
        }
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream os = socket.getOutputStream();
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            os.write(bytes);
            os.flush();
            socket.shutdownOutput();
            drainUntilClosed(socket.getInputStream());
        }
        return frames;
    }

    /** The broker closes every fuzzing connection: at the broken frame, or at the end of input. */
    private static void drainUntilClosed(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        try {
            while (in.read(buffer) >= 0) {
                // answers to the valid requests, then a protocol error
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the broker kept a broken connection open for 10 s", e);
        } catch (IOException e) {
            // reset by the broker: closed too
        }
    }

    private static ByteBuf streamOpen(int id, int stream, int credit, long creditBytes) {
        return frame(Op.STREAM_TASKS.code(), id, b -> {
            Fields.writeString(b, "fuzz-tasks");
            b.writeInt(stream);
            b.writeLong(STREAM_LEASE_MILLIS); // short: what a closed connection's stream pushed comes back soon
            Values.writeFilter(b, null);
            b.writeInt(credit).writeLong(creditBytes);
        });
    }

    private static ByteBuf validRequest(SplittableRandom random, int id) {
        return switch (random.nextInt(9)) {
            case 6 -> streamOpen(id, 1 + random.nextInt(4), 1 + random.nextInt(8), 1 << 16);
            case 7 -> frame(FrameDescriptor.CREDIT, 100 + random.nextInt(4), b -> b.writeInt(1)); // no such stream
            case 8 -> frame(Op.STREAM_CLOSE.code(), id, b -> b.writeInt(1 + random.nextInt(4)));
            case 0 -> frame(Op.APPEND.code(), id, b -> {
                Fields.writeString(b, "fuzz");
                Values.writeDurability(b, Durability.ASYNC);
                Values.writeEntries(b, List.of(Entry.of("fuzz " + id)));
            });
            case 1 -> frame(Op.READ.code(), id, b -> {
                Fields.writeString(b, "fuzz");
                b.writeLong(random.nextInt(100)).writeInt(10).writeLong(1 << 16);
            });
            case 2 -> frame(Op.END_OFFSET.code(), id, b -> Fields.writeString(b, "fuzz"));
            case 3 -> frame(Op.LIST.code(), id, b -> Values.writeKind(b, QueueKind.LOG));
            case 4 -> frame(Op.READ_ONE.code(), id, b -> {   // an error answer: no such queue
                Fields.writeString(b, "no-such-queue");
                b.writeLong(0);
            });
            default -> frame(FrameDescriptor.PING, 0, b -> { });
        };
    }

    private static void helloBody(ByteBuf b) {
        new ClientHello(Protocol.VERSION, Protocol.FEATURES, MAX_FRAME_BYTES, 10_000, "fuzz", null, null).write(b);
    }

    private static ByteBuf frame(int type, int id, Consumer<ByteBuf> body) {
        ByteBuf frame = FrameDescriptor.writeHeader(Unpooled.buffer(), type, 0, id);
        body.accept(frame);
        return Unpooled.buffer().writeInt(frame.readableBytes()).writeBytes(frame);
    }

    /** The heap in use after full collections (a few: what one frees may let the next free more). */
    private static long usedHeapAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
