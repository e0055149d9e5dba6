package io.mikyu.client;

import io.mikyu.protocol.ClientHello;
import io.mikyu.protocol.ErrorCode;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Protocol;
import io.mikyu.protocol.ServerHello;
import io.mikyu.transport.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A broker that speaks only the protocol, on a loopback port the system picks: it shakes hands and hands every
 * request to the test, which answers it (or not) when and how it likes. So a test can answer calls out of order,
 * answer one with an error, or drop the connection with calls in flight.
 */
final class ScriptedBroker implements AutoCloseable {

    /** How long a test waits for a request to arrive: generous, the machine may be loaded. */
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /** A request as it arrived: its channel, operation, request id, and body bytes. */
    record Request(Channel channel, Op op, int id, byte[] body) {

        /** The body, for reading its fields. */
        ByteBuf bodyBuffer() {
            return Unpooled.wrappedBuffer(body);
        }
    }

    private final EventLoopGroup group = Transport.NIO.newGroup(1, "scripted-broker");
    private final BlockingQueue<Request> requests = new LinkedBlockingQueue<>();
    private final AtomicInteger handshakes = new AtomicInteger();
    private final Channel server;

    private ScriptedBroker() throws InterruptedException {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        Protocol.install(ch.pipeline(), Protocol.DEFAULT_HEARTBEAT_MILLIS);
                        ch.pipeline().addLast(new Requests());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    static ScriptedBroker start() throws InterruptedException {
        return new ScriptedBroker();
    }

    /** The URI clients dial, with {@code query} (options) if not empty. */
    String uri(String query) {
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        return "tcp://127.0.0.1:" + port + (query.isEmpty() ? "" : "?" + query);
    }

    /** How many handshakes were answered: one per connection the client made. */
    int handshakes() {
        return handshakes.get();
    }

    /** The next request to arrive, waiting for it up to a generous deadline. */
    Request next() throws InterruptedException {
        Request r = requests.poll(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) {
            throw new AssertionError("no request arrived within " + DEADLINE);
        }
        return r;
    }

    /** Answers {@code r} with a result whose body {@code body} writes. */
    void answer(Request r, Consumer<ByteBuf> body) {
        ByteBuf frame = FrameDescriptor.writeHeader(r.channel().alloc().buffer(), FrameDescriptor.RESULT, 0, r.id());
        body.accept(frame);
        r.channel().writeAndFlush(frame);
    }

    /** Answers {@code r} with an error. */
    void fail(Request r, ErrorCode code, String message) {
        ByteBuf frame = FrameDescriptor.writeHeader(r.channel().alloc().buffer(), FrameDescriptor.ERROR, 0, r.id());
        frame.writeShort(code.code());
        Fields.writeString(frame, message);
        r.channel().writeAndFlush(frame);
    }

    /** Closes the connection {@code r} came on, without answering it (as a broker that died would). */
    void drop(Request r) {
        r.channel().close().syncUninterruptibly();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Answers the hello; files every other request for the test. */
    private final class Requests extends SimpleChannelInboundHandler<ByteBuf> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            int type = FrameDescriptor.type(frame);
            int id = FrameDescriptor.requestId(frame);
            frame.skipBytes(FrameDescriptor.HEADER_BYTES);
            if (type == FrameDescriptor.HELLO) {
                ClientHello.read(frame);
                ByteBuf hello = FrameDescriptor.writeHeader(ctx.alloc().buffer(), FrameDescriptor.HELLO_OK, 0,
                        FrameDescriptor.CONNECTION_ID);
                new ServerHello(Protocol.VERSION, 0, Protocol.DEFAULT_MAX_FRAME_BYTES,
                        Protocol.DEFAULT_HEARTBEAT_MILLIS, "scripted", null).write(hello);
                ctx.writeAndFlush(hello);
                Protocol.handshakeDone(ctx.pipeline(), Protocol.DEFAULT_MAX_FRAME_BYTES,
                        Protocol.DEFAULT_HEARTBEAT_MILLIS);
                handshakes.incrementAndGet();
                return;
            }
            requests.add(new Request(ctx.channel(), Op.of(type), id, ByteBufUtil.getBytes(frame)));
        }
    }
}
