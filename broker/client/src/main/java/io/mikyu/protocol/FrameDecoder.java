package io.mikyu.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;

import java.nio.ByteOrder;

/**
 * Splits the byte stream into frames by their length field and strips it. The limit can be raised once, after
 * the handshake: it is checked as soon as a length field arrives, before any of the frame is buffered.
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {

    private volatile int limit;

    FrameDecoder(int limit) {
        super(Integer.MAX_VALUE, 0, FrameDescriptor.LENGTH_FIELD_BYTES, 0, FrameDescriptor.LENGTH_FIELD_BYTES);
        this.limit = limit;
    }

    void limit(int maxFrameBytes) {
        this.limit = maxFrameBytes;
    }

    @Override
    protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
        long frameLength = super.getUnadjustedFrameLength(buf, offset, length, order);
        if (frameLength < FrameDescriptor.HEADER_BYTES) {
            throw new MalformedFrameException("frame length " + frameLength + " is below the "
                    + FrameDescriptor.HEADER_BYTES + "-byte header");
        }
        if (frameLength > limit) {
            throw new TooLongFrameException("frame of " + frameLength + " bytes exceeds the limit of " + limit);
        }
        return frameLength;
    }
}
