package io.mikyu.protocol;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a quiet connection alive and drops a dead one: a side that has written nothing for a heartbeat interval
 * sends a {@link FrameDescriptor#PING}; a side that has read nothing for {@link Protocol#MISSED_HEARTBEATS}
 * intervals closes the connection (its peer crashed, or the network between them is gone). PINGs are swallowed
 * here, so handlers behind this one never see them.
 */
final class HeartbeatHandler extends ChannelDuplexHandler {

    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatHandler.class);

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent idle) {
            if (idle.state() == IdleState.WRITER_IDLE) {
                ctx.writeAndFlush(FrameDescriptor.writeHeader(ctx.alloc().buffer(FrameDescriptor.HEADER_BYTES),
                        FrameDescriptor.PING, 0, FrameDescriptor.CONNECTION_ID))
                        .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
            } else if (idle.state() == IdleState.READER_IDLE) {
                LOG.info("closing connection {}: nothing heard from the peer for {} heartbeats", ctx.channel(),
                        Protocol.MISSED_HEARTBEATS);
                ctx.close();
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof io.netty.buffer.ByteBuf frame && frame.readableBytes() >= FrameDescriptor.HEADER_BYTES
                && FrameDescriptor.type(frame) == FrameDescriptor.PING) {
            frame.release();
            return;
        }
        super.channelRead(ctx, msg);
    }
}
