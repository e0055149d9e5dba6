package io.mikyu.protocol;

import io.netty.buffer.ByteBuf;

/**
 * The layout of a frame, written down once; see {@code docs/protocol.md}. Big-endian (network order).
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 length (bytes after this field)               |
 *  +---------------+---------------+-------------------------------+
 *  |     type      |     flags     |          request id ...       |
 *  +---------------+---------------+-------------------------------+
 *  |       ... request id          |            body ...           |
 *  +-------------------------------+-------------------------------+
 * </pre>
 *
 * A request's type is its {@link Op} code; the answer to it is a {@link #RESULT} or an {@link #ERROR} frame with the
 * same request id. Frames of the connection itself ({@link #HELLO}, {@link #PING}, a fatal {@link #ERROR}) carry
 * request id 0. The length field is read and stripped by the frame decoder, so offsets below count from the type.
 */
public final class FrameDescriptor {

    public static final int LENGTH_FIELD_BYTES = 4;
    public static final int TYPE_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int REQUEST_ID_OFFSET = 2;
    /** Type, flags and request id: the smallest frame there is. */
    public static final int HEADER_BYTES = 6;

    /** Client to server, first frame: see {@link ClientHello}. */
    public static final int HELLO = 0x01;
    /** Server to client, the answer to {@link #HELLO}: see {@link ServerHello}. */
    public static final int HELLO_OK = 0x02;
    /** Either way, when a side has sent nothing for a heartbeat interval; never answered. */
    public static final int PING = 0x03;
    /** The successful answer to a request; its body depends on the request's {@link Op}. */
    public static final int RESULT = 0x04;
    /** A failed request: {@code code:u16 message:text}; with request id 0 the connection is closed after it. */
    public static final int ERROR = 0x05;

    /**
     * Broker to client, with the streams feature: records or tasks pushed on a consumer stream. The request id field
     * holds the stream's id; the body is {@code count:i32} and that many items. See {@link StreamDescriptor}.
     */
    public static final int DELIVERY = 0x06;
    /**
     * Client to broker, with the streams feature: the application took {@code messages:i32} more of the stream's
     * pushed items, so the broker may push that many more. Never answered. See {@link StreamDescriptor}.
     */
    public static final int CREDIT = 0x07;

    /**
     * On a {@link #RESULT}: more frames with the same request id follow. A list too large for one frame is sent
     * in several, each holding a count and that many items; the receiver concatenates them.
     */
    public static final int FLAG_MORE = 0x01;

    /** On an {@link #ERROR}: the id is a consumer stream's, which the broker ended (its queue was deleted). */
    public static final int FLAG_STREAM = 0x02;

    /** Connection-level frames use request id 0; requests never do. */
    public static final int CONNECTION_ID = 0;

    private FrameDescriptor() {
    }

    /** Starts a frame: writes the header; the length field is added by the frame encoder. */
    public static ByteBuf writeHeader(ByteBuf buf, int type, int flags, int requestId) {
        return buf.writeByte(type).writeByte(flags).writeInt(requestId);
    }

    public static int type(ByteBuf frame) {
        return frame.getUnsignedByte(frame.readerIndex() + TYPE_OFFSET);
    }

    public static int flags(ByteBuf frame) {
        return frame.getUnsignedByte(frame.readerIndex() + FLAGS_OFFSET);
    }

    public static int requestId(ByteBuf frame) {
        return frame.getInt(frame.readerIndex() + REQUEST_ID_OFFSET);
    }
}
