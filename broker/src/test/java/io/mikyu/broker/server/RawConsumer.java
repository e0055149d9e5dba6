package io.mikyu.broker.server;

import io.mikyu.engine.LeasedTask;
import io.mikyu.protocol.ClientHello;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Protocol;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A consumer speaking the protocol over a plain socket, so a test decides exactly what it reads, which CREDITs it
 * sends and when it is gone ({@link #close()} ends the socket without closing its streams, as a killed process).
 */
final class RawConsumer implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;

    RawConsumer(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(60_000);
        in = new DataInputStream(socket.getInputStream());
        send(frame(FrameDescriptor.HELLO, 0, b -> new ClientHello(Protocol.VERSION, Protocol.FEATURES,
                Protocol.DEFAULT_MAX_FRAME_BYTES, 10_000, "raw", null, null).write(b)));
        awaitFrame(FrameDescriptor.HELLO_OK);
    }

    /** Opens stream {@code stream} on task queue {@code queue}; the broker pushes up to {@code credit} items. */
    void streamTasks(String queue, int stream, long leaseMillis, int credit) throws IOException {
        send(frame(Op.STREAM_TASKS.code(), 1, b -> {
            Fields.writeString(b, queue);
            b.writeInt(stream);
            b.writeLong(leaseMillis);
            Values.writeFilter(b, null);
            b.writeInt(credit).writeLong(1 << 20);
        }));
    }

    /** The items of the next DELIVERY frame (of any stream). */
    List<LeasedTask> nextDelivery() throws IOException {
        ByteBuf frame = Unpooled.wrappedBuffer(awaitFrame(FrameDescriptor.DELIVERY));
        frame.skipBytes(FrameDescriptor.HEADER_BYTES);
        int count = frame.readInt();
        List<LeasedTask> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            items.add(Values.readLeasedTask(frame));
        }
        return items;
    }

    /** Says the application took the oldest {@code messages} items of {@code stream}. */
    void credit(int stream, int messages) throws IOException {
        send(frame(FrameDescriptor.CREDIT, stream, b -> b.writeInt(messages)));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private byte[] awaitFrame(int type) throws IOException {
        while (true) {
            int length = in.readInt();
            byte[] frame = new byte[length];
            in.readFully(frame);
            if ((frame[FrameDescriptor.TYPE_OFFSET] & 0xFF) == type) {
                return frame;
            }
        }
    }

    private void send(ByteBuf frame) throws IOException {
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
