package io.mikyu.broker.server;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.protocol.ClientHello;
import io.mikyu.protocol.ErrorCode;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Protocol;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that breaks the protocol is told so and disconnected; the broker and its other clients carry on.
 * Each test speaks raw bytes over a socket while a well-behaved client keeps working beside it.
 */
class MalformedFrameTest {

    @TempDir
    Path dir;

    private RunningBroker broker;
    private LogQueue bystander;

    @BeforeEach
    void start() {
        broker = new RunningBroker(dir, RunningBroker.ENGINE, o -> o.withHeartbeat(Duration.ofMillis(200)));
        bystander = broker.dial().createLog("events");
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void garbageInsteadOfAHelloClosesTheConnection() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
            assertClosedWithProtocolError(socket);
        }
        assertBystanderWorks();
    }

    @Test
    void aLengthBelowTheHeaderClosesTheConnection() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(new byte[] {0, 0, 0, 2, 1, 0});
            assertClosedWithProtocolError(socket);
        }
        assertBystanderWorks();
    }

    @Test
    void anOversizedLengthClosesTheConnectionBeforeAnythingIsBuffered() throws Exception {
        try (Socket socket = connect()) {
            hello(socket);
            socket.getOutputStream().write(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
            assertClosedWithProtocolError(socket);
        }
        assertBystanderWorks();
    }

    @Test
    void aFrameWhoseFieldsOverrunItClosesTheConnection() throws Exception {
        try (Socket socket = connect()) {
            hello(socket);
            send(socket, Op.APPEND.code(), 7, b -> {
                b.writeInt(6).writeBytes("events".getBytes());
                b.writeByte(1);
                b.writeInt(1_000_000); // a million entries promised, none there
            });
            assertClosedWithProtocolError(socket);
        }
        assertBystanderWorks();
    }

    @Test
    void anUnknownRequestTypeClosesTheConnection() throws Exception {
        try (Socket socket = connect()) {
            hello(socket);
            send(socket, 0xEE, 7, b -> { });
            assertClosedWithProtocolError(socket);
        }
        assertBystanderWorks();
    }

    @Test
    void aRequestBeforeTheHelloClosesTheConnection() throws Exception {
        try (Socket socket = connect()) {
            send(socket, Op.LIST.code(), 7, b -> b.writeByte(0));
            assertClosedWithProtocolError(socket);
        }
        assertBystanderWorks();
    }

    @Test
    void aPeerThatFallsSilentIsDisconnected() throws Exception {
        try (Socket socket = connect()) {
            hello(socket);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            long start = System.nanoTime();
            // The broker pings (which this peer never answers) and drops it after three silent intervals.
            assertThat(readUntilClosed(in)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
        assertBystanderWorks();
    }

    @Test
    void aStreamFrameOnAConnectionWithoutTheStreamsFeatureClosesIt() throws Exception {
        try (Socket socket = connect()) {
            hello(socket);
            send(socket, FrameDescriptor.CREDIT, 3, b -> b.writeInt(1));
            assertClosedWithProtocolError(socket);
        }
        assertBystanderWorks();
    }

    @Test
    void aStreamAskingForNoCreditClosesTheConnection() throws Exception {
        broker.store().createTaskQueue("jobs");
        try (Socket socket = connect()) {
            hello(socket, Protocol.FEATURE_STREAMS);
            send(socket, Op.STREAM_TASKS.code(), 7, streamOpen(3, 0));
            assertClosedWithProtocolError(socket);
        }
        assertBystanderWorks();
    }

    @Test
    void creditForMoreThanWasPushedClosesTheConnection() throws Exception {
        broker.store().createTaskQueue("jobs");
        try (Socket socket = connect()) {
            hello(socket, Protocol.FEATURE_STREAMS);
            send(socket, Op.STREAM_TASKS.code(), 7, streamOpen(3, 2));
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] opened = new byte[in.readInt()];
            in.readFully(opened);
            assertThat(opened[0]).as("the open's answer").isEqualTo((byte) FrameDescriptor.RESULT);
            send(socket, FrameDescriptor.CREDIT, 3, b -> b.writeInt(5));
            assertClosedWithProtocolError(socket);
        }
        assertBystanderWorks();
    }

    private static Consumer<ByteBuf> streamOpen(int stream, int credit) {
        return b -> {
            io.mikyu.protocol.Fields.writeString(b, "jobs");
            b.writeInt(stream);
            b.writeLong(30_000);
            io.mikyu.protocol.Values.writeFilter(b, null);
            b.writeInt(credit).writeLong(1 << 20);
        };
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", broker.endpoint().uri().getPort());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private void hello(Socket socket) throws IOException {
        hello(socket, 0);
    }

    private void hello(Socket socket, long features) throws IOException {
        send(socket, FrameDescriptor.HELLO, 0, b -> new ClientHello(Protocol.VERSION, features, 1 << 20, 10_000,
                "raw", null, null).write(b));
        DataInputStream in = new DataInputStream(socket.getInputStream());
        int length = in.readInt();
        byte[] frame = new byte[length];
        in.readFully(frame);
        assertThat(frame[0]).isEqualTo((byte) FrameDescriptor.HELLO_OK);
    }

    private static void send(Socket socket, int type, int id, Consumer<ByteBuf> body) throws IOException {
        ByteBuf frame = FrameDescriptor.writeHeader(Unpooled.buffer(), type, 0, id);
        body.accept(frame);
        ByteBuf out = Unpooled.buffer().writeInt(frame.readableBytes()).writeBytes(frame);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    /** Reads frames until the broker closes; the last one before must be a connection-level protocol error. */
    private static void assertClosedWithProtocolError(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        int lastType = -1;
        int lastCode = -1;
        while (true) {
            int length;
            try {
                length = in.readInt();
            } catch (EOFException e) {
                break;
            }
            byte[] frame = new byte[length];
            in.readFully(frame);
            lastType = frame[0];
            if (lastType == FrameDescriptor.ERROR) {
                lastCode = ((frame[6] & 0xff) << 8) | (frame[7] & 0xff);
            }
        }
        assertThat(lastType).isEqualTo(FrameDescriptor.ERROR);
        assertThat(lastCode).isEqualTo(ErrorCode.PROTOCOL.code());
    }

    private static boolean readUntilClosed(InputStream in) throws IOException {
        byte[] buffer = new byte[256];
        while (in.read(buffer) >= 0) {
            // pings
        }
        return true;
    }

    private void assertBystanderWorks() {
        long offset = bystander.append(Entry.of("still here"));
        assertThat(bystander.read(offset).payloadAsString()).isEqualTo("still here");
        try (Mikyu fresh = Mikyu.dial(broker.uri())) {
            assertThat(fresh.log("events").endOffset()).isEqualTo(offset + 1);
        }
    }
}
