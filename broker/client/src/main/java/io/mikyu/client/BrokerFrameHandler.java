package io.mikyu.client;

import io.mikyu.engine.StoreClosedException;
import io.mikyu.protocol.ErrorCode;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.MalformedFrameException;
import io.mikyu.protocol.Protocol;
import io.mikyu.protocol.ServerHello;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's frames to a {@link BrokerChannel}, on the event loop: the handshake's answer, answers filed under
 * their request ids for the waiting callers ({@link PendingCalls}), deliveries to their streams
 * ({@link StreamRegistry}). Nothing is decoded here beyond the header: each caller decodes its own answer.
 */
final class BrokerFrameHandler extends SimpleChannelInboundHandler<ByteBuf> {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerFrameHandler.class);

    private final BrokerChannel channel;
    private final PendingCalls calls;
    private final StreamRegistry streams;

    BrokerFrameHandler(BrokerChannel channel, PendingCalls calls, StreamRegistry streams) {
        super(false);
        this.channel = channel;
        this.calls = calls;
        this.streams = streams;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
        int type = FrameDescriptor.type(frame);
        int flags = FrameDescriptor.flags(frame);
        int id = FrameDescriptor.requestId(frame);
        frame.skipBytes(FrameDescriptor.HEADER_BYTES);
        boolean kept = false;
        try {
            switch (type) {
                case FrameDescriptor.HELLO_OK -> {
                    ServerHello hello = ServerHello.read(frame);
                    Protocol.handshakeDone(ctx.pipeline(), hello.maxFrameBytes(), hello.heartbeatMillis());
                    channel.handshake().complete(hello);
                }
                case FrameDescriptor.RESULT -> kept = calls.result(id, frame, (flags & FrameDescriptor.FLAG_MORE) != 0);
                case FrameDescriptor.DELIVERY -> kept = streams.delivered(id, frame);
                case FrameDescriptor.ERROR -> {
                    ErrorCode code = ErrorCode.of(Fields.readU16(frame));
                    String message = Fields.readString(frame);
                    if ((flags & FrameDescriptor.FLAG_STREAM) != 0) {
                        streams.ended(id, code, message);
                    } else if (id == FrameDescriptor.CONNECTION_ID) {
                        channel.closeBecause("broker at " + channel.endpoint() + " closed the connection: " + message);
                        channel.handshake().completeExceptionally(code.toException(message));
                        ctx.close();
                    } else {
                        calls.error(id, code, message);
                    }
                }
                default -> throw new MalformedFrameException("unexpected frame type " + type + " from broker");
            }
        } catch (MalformedFrameException e) {
            LOG.warn("closing connection to {}: {}", channel.endpoint(), e.getMessage());
            channel.closeBecause("broker at " + channel.endpoint() + " broke the protocol: " + e.getMessage());
            ctx.close();
        } finally {
            if (!kept) {
                frame.release();
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!channel.isInUse(ctx.channel())) {
            return;     // a channel already replaced
        }
        String reason = "connection to mikyu broker at " + channel.endpoint() + " was closed";
        channel.handshake().completeExceptionally(new StoreClosedException(reason));
        channel.channelClosed(reason);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!channel.handshake().isDone()) {
            // Before the hello's answer: most likely TLS (an untrusted certificate, a plain broker). Say so.
            Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
            channel.handshake().completeExceptionally(new StoreClosedException("cannot connect to mikyu broker at "
                    + channel.endpoint() + ": " + root));
            ctx.close();
            return;
        }
        LOG.warn("closing connection to {}: {}", channel.endpoint(), cause.toString());
        channel.channelFailed("connection to " + channel.endpoint() + " failed: " + cause);
        ctx.close();
    }
}
