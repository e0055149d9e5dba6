package io.mikyu.broker.server;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.SteppableTimeSource;
import io.mikyu.protocol.ClientHello;
import io.mikyu.protocol.Fields;
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
 * What a consumer stream pushed to a connection that ends without closing the stream stays leased only until its
 * lease ends, whatever ended it: a malformed frame, a connection closed after a CREDIT for a stream the broker does
 * not have, a connection closed while the broker is still pushing. Then nothing is leased any more, and the tasks
 * come back with the delivery counted.
 */
@Timeout(120)
class PushedLeasesEndTest {

    private static final long LEASE_MILLIS = 1_000;
    private static final int TASKS = 500;
    private static final Duration AT_MOST = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** The store's clock: the leases end when the test moves it. */
    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    @Test
    void aStreamEndedByAMalformedFrameLeavesNothingLeasedOnceItsLeasesEnd() throws Exception {
        run(socket -> {
            send(socket, frame(FrameDescriptor.CREDIT, 7, b -> b.writeInt(10_000))); // more than was ever pushed
        });
    }

    @Test
    void aConnectionClosedAfterACreditForAnUnknownStreamLeavesNothingLeasedOnceItsLeasesEnd() throws Exception {
        run(socket -> send(socket, frame(FrameDescriptor.CREDIT, 99, b -> b.writeInt(1))));
    }

    @Test
    void aConnectionClosedWhileTheBrokerPushesLeavesNothingLeasedOnceItsLeasesEnd() throws Exception {
        run(socket -> {
            // taken some and asked for more: the broker is pushing when the connection goes
            send(socket, frame(FrameDescriptor.CREDIT, 7, b -> b.writeInt(1)));
        });
    }

    /** Opens a stream on a raw connection, waits for a delivery, does {@code then}, and closes the socket. */
    private void run(IoAction then) throws Exception {
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE.toBuilder().timeSource(clock)
                .build(), o -> o)) {
            Mikyu store = broker.store();
            TaskQueue jobs = store.createTaskQueue("jobs");
            List<Task> tasks = new ArrayList<>();
            for (int i = 0; i < TASKS; i++) {
                tasks.add(Task.of("job " + i));
            }
            jobs.enqueueBatch(tasks);
            try (Socket socket = new Socket("127.0.0.1", broker.endpoint().port())) {
                socket.setSoTimeout(30_000);
                DataInputStream in = new DataInputStream(socket.getInputStream());
                send(socket, frame(FrameDescriptor.HELLO, 0, b -> new ClientHello(Protocol.VERSION,
                        Protocol.FEATURES, Protocol.DEFAULT_MAX_FRAME_BYTES, 10_000, "raw", null, null).write(b)));
                awaitFrame(in, FrameDescriptor.HELLO_OK);
                send(socket, frame(Op.STREAM_TASKS.code(), 1, b -> {
                    Fields.writeString(b, "jobs");
                    b.writeInt(7);
                    b.writeLong(LEASE_MILLIS);
                    Values.writeFilter(b, null);
                    b.writeInt(64).writeLong(1 << 20);
                }));
                awaitFrame(in, FrameDescriptor.DELIVERY);
                assertThat(jobs.counts().inFlight()).as("pushed and leased").isPositive();
                then.run(socket);
            }
            await("no stream left open").atMost(AT_MOST).until(() -> broker.server().openStreams() == 0);
            assertThat(jobs.counts().inFlight()).as("what was pushed, leased until its lease ends").isPositive();
            clock.advance(Duration.ofMillis(LEASE_MILLIS));
            await("no task left leased after the leases ended").atMost(AT_MOST)
                    .until(() -> jobs.counts().inFlight() == 0);
            // Every task is still there, and those pushed come back as delivered once already (after the queue's
            // retry backoff).
            clock.advance(TaskQueueConfig.defaults().backoff(1));
            List<LeasedTask> all = new ArrayList<>();
            long until = System.nanoTime() + AT_MOST.toNanos();
            while (all.size() < TASKS && System.nanoTime() < until) {
                all.addAll(jobs.dequeue(TASKS, Duration.ofMinutes(1), Duration.ofMillis(200), null));
            }
            assertThat(all).hasSize(TASKS);
            assertThat(all).as("pushed tasks, their delivery counted").anyMatch(t -> t.attempt() > 1);
        }
    }

    @FunctionalInterface
    private interface IoAction {
        void run(Socket socket) throws IOException;
    }

    private static void awaitFrame(DataInputStream in, int type) throws IOException {
        while (true) {
            int length = in.readInt();
            byte[] frame = new byte[length];
            in.readFully(frame);
            if ((frame[FrameDescriptor.TYPE_OFFSET] & 0xFF) == type) {
                return;
            }
        }
    }

    private static void send(Socket socket, ByteBuf frame) throws IOException {
        byte[] bytes = new byte[frame.readableBytes()];
        frame.readBytes(bytes);
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    private static ByteBuf frame(int type, int id, Consumer<ByteBuf> body) {
        ByteBuf frame = FrameDescriptor.writeHeader(Unpooled.buffer(), type, 0, id);
        body.accept(frame);
        return Unpooled.buffer().writeInt(frame.readableBytes()).writeBytes(frame);
    }
}
