package io.mikyu.protocol;

import io.netty.buffer.ByteBuf;

/**
 * Consumer streams (feature {@link Protocol#FEATURE_STREAMS}), written down once; see {@code docs/protocol.md},
 * "Consumer streams". A client opens a stream on a task queue or on a shared group it opened, and the broker
 * pushes leased items to it as long as the client holds credit:
 *
 * <pre>
 *   STREAM_TASKS   (request)  queue:string stream:i32 lease:millis filter credit:i32 creditBytes:i64   → empty
 *   STREAM_SHARED  (request)  queue:string group:string stream:i32 lease:millis credit:i32 creditBytes:i64 → empty
 *   STREAM_CLOSE   (request)  stream:i32                                                            → empty
 *   DELIVERY  0x06 (broker)   id = stream   count:i32 item*   (item: leasedTask, or delivery for a shared group)
 *   CREDIT    0x07 (client)   id = stream   messages:i32      (never answered)
 *   ERROR          (broker)   id = stream, flag STREAM: the broker ended the stream
 * </pre>
 *
 * The broker keeps, per stream, the items it pushed that the client has not yet reported taken ("outstanding"),
 * in push order; it pushes while fewer than {@code credit} items and fewer than {@code creditBytes} bytes (the
 * items' encoded size in DELIVERY frames; always at least one item) are outstanding. A CREDIT of {@code n} says the
 * application took the oldest {@code n} outstanding items. Outstanding items are the broker's to renew and, when the
 * stream or the connection closes, to give back undelivered (no attempt counted).
 */
public final class StreamDescriptor {

    /** The most messages a stream may hold outstanding: bounds the broker's bookkeeping per stream. */
    public static final int MAX_CREDIT = 65_536;
    /** The most bytes a stream may hold outstanding (1 GiB). */
    public static final long MAX_CREDIT_BYTES = 1L << 30;
    /** The most streams one connection may have open at once. */
    public static final int MAX_STREAMS_PER_CONNECTION = 1024;

    private StreamDescriptor() {
    }

    /** A stream id: any non-zero {@code i32}, unique among the connection's open streams. */
    public static int readStreamId(ByteBuf buf) {
        int id = Fields.readInt(buf);
        if (id == FrameDescriptor.CONNECTION_ID) {
            throw new MalformedFrameException("stream id 0 is the connection's");
        }
        return id;
    }

    /** {@code credit:i32}, 1 to {@link #MAX_CREDIT}. */
    public static int readCredit(ByteBuf buf) {
        int credit = Fields.readInt(buf);
        if (credit < 1 || credit > MAX_CREDIT) {
            throw new MalformedFrameException("stream credit " + credit + " is outside 1.." + MAX_CREDIT);
        }
        return credit;
    }

    /** {@code creditBytes:i64}, 1 to {@link #MAX_CREDIT_BYTES}. */
    public static long readCreditBytes(ByteBuf buf) {
        long bytes = Fields.readLong(buf);
        if (bytes < 1 || bytes > MAX_CREDIT_BYTES) {
            throw new MalformedFrameException("stream credit of " + bytes + " bytes is outside 1.."
                    + MAX_CREDIT_BYTES);
        }
        return bytes;
    }

    /** The body of a {@link FrameDescriptor#CREDIT} frame: {@code messages:i32}, at least 1. */
    public static int readCreditFrame(ByteBuf buf) {
        int messages = Fields.readInt(buf);
        if (messages < 1) {
            throw new MalformedFrameException("credit of " + messages + " messages");
        }
        Fields.expectEnd(buf);
        return messages;
    }

    /** A whole {@link FrameDescriptor#CREDIT} frame (without the length field, which the encoder adds). */
    public static ByteBuf writeCreditFrame(ByteBuf buf, int stream, int messages) {
        return FrameDescriptor.writeHeader(buf, FrameDescriptor.CREDIT, 0, stream).writeInt(messages);
    }
}
