package io.mikyu.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The pipeline both sides install coalesces flushes: the frames one turn of the event loop writes reach the socket
 * in one write, and none of them waits for anything but the end of that turn.
 */
class FlushCoalescingTest {

    /** Counts the flushes that get past the protocol's handlers to the transport (one write system call each). */
    private static final class TransportFlushes extends ChannelOutboundHandlerAdapter {
        volatile int count;   // written on the event loop, read by the test

        @Override
        public void flush(ChannelHandlerContext ctx) {
            count++;
            ctx.flush();
        }
    }

    private static ByteBuf frame(int type, int requestId) {
        return FrameDescriptor.writeHeader(Unpooled.buffer(), type, 0, requestId);
    }

    /** What the transport was given to write and has not written (an EmbeddedChannel keeps it). */
    private static int pendingBytes(EmbeddedChannel ch) {
        int bytes = 0;
        for (Object o : ch.outboundMessages()) {
            bytes += ((ByteBuf) o).readableBytes();
        }
        return bytes;
    }

    @Test
    void framesFlushedOutsideAReadGoOutInOneWriteOnceTheEventLoopHasRunTheTaskThatWroteThem() throws Exception {
        // A real event loop over an in-process channel: an EmbeddedChannel runs queued tasks on every write.
        LocalAddress address = new LocalAddress("flush-coalescing-" + System.nanoTime());
        AtomicInteger received = new AtomicInteger();
        TransportFlushes transport = new TransportFlushes();
        DefaultEventLoopGroup group = new DefaultEventLoopGroup(1);
        try {
            Channel server = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            received.addAndGet(((ByteBuf) msg).readableBytes());
                            ((ByteBuf) msg).release();
                        }
                    }).bind(address).sync().channel();
            Channel client = new Bootstrap().group(group).channel(LocalChannel.class)
                    .handler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addFirst(transport);
                            Protocol.install(ch.pipeline(), 10_000);
                        }
                    }).connect(address).sync().channel();

            // Three answers written and flushed by one task of the event loop, as a writer's completion does.
            int flushesBefore = client.eventLoop().submit(() -> {
                int before = transport.count;
                for (int id = 1; id <= 3; id++) {
                    client.writeAndFlush(frame(FrameDescriptor.RESULT, id));
                }
                return transport.count - before;
            }).get(10, TimeUnit.SECONDS);

            int frameBytes = FrameDescriptor.LENGTH_FIELD_BYTES + FrameDescriptor.HEADER_BYTES;
            await().atMost(Duration.ofSeconds(10)).until(() -> received.get() == 3 * frameBytes);
            assertThat(flushesBefore).as("flushes inside the task that wrote the frames").isZero();
            assertThat(transport.count).as("flushes that reached the transport").isEqualTo(1);
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void answersWrittenWhileReadingGoOutInOneWriteWhenTheReadBatchEnds() {
        TransportFlushes transport = new TransportFlushes();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addFirst(transport);
        Protocol.install(ch.pipeline(), 10_000);
        // Answers every request frame at once, as the broker answers a request it can answer on the event loop.
        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf request = (ByteBuf) msg;
                int id = FrameDescriptor.requestId(request);
                request.release();
                ctx.writeAndFlush(frame(FrameDescriptor.RESULT, id));
            }
        });

        // Two requests arrive in one read.
        ByteBuf wire = Unpooled.buffer();
        for (int id = 1; id <= 2; id++) {
            wire.writeInt(FrameDescriptor.HEADER_BYTES);
            FrameDescriptor.writeHeader(wire, FrameDescriptor.RESULT, 0, id);
        }
        ch.writeInbound(wire);

        assertThat(transport.count).isEqualTo(1);
        int frameBytes = FrameDescriptor.LENGTH_FIELD_BYTES + FrameDescriptor.HEADER_BYTES;
        assertThat(pendingBytes(ch)).isEqualTo(2 * frameBytes);
        ch.finishAndReleaseAll();
    }
}
