package io.mikyu.protocol;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.timeout.IdleStateHandler;

import java.util.concurrent.TimeUnit;

/** The protocol's constants and the Netty handlers both sides put in front of their own. */
public final class Protocol {

    /** The version this code speaks; {@link ClientHello#version()} and {@link ServerHello#version()}. */
    public static final int VERSION = 1;
    /** The oldest version a broker of this code accepts. */
    public static final int MIN_VERSION = 1;
    /**
     * Feature bit 0: consumer streams ({@link Op#STREAM_TASKS}, {@link Op#STREAM_SHARED}, {@link Op#STREAM_CLOSE},
     * {@link FrameDescriptor#DELIVERY}, {@link FrameDescriptor#CREDIT}); see {@link StreamDescriptor}.
     */
    public static final long FEATURE_STREAMS = 1L;
    /**
     * Feature bit 1: log records in the engine's batch layout both ways: appends ({@link Op#APPEND_ENCODED}), which
     * the broker checks and writes as they are, and reads ({@link Op#POLL_ENCODED}), answered with stored batches.
     */
    public static final long FEATURE_ENCODED_BATCHES = 2L;
    /**
     * Feature bit 2: what an XA layer needs: the broker's {@link ServerHello} ends with its store's id, and it
     * answers {@link Op#IN_DOUBT_TRANSACTIONS}.
     */
    public static final long FEATURE_XA = 4L;
    /**
     * Feature bit 3: acks that say how durable they must be ({@link Op#TASK_ACK_DURABLE},
     * {@link Op#SHARED_ACK_DURABLE}); without it an ack is as durable as its queue's configuration.
     */
    public static final long FEATURE_DURABLE_ACKS = 8L;
    /**
     * Feature bit 4: the broker deletes a consumer group unless a claim is held, in one step
     * ({@link Op#DELETE_GROUP_UNLESS_CLAIMED}); without it a client can only check the claim and then delete.
     */
    public static final long FEATURE_GUARDED_DELETES = 16L;
    /**
     * Feature bit 5: transient enqueues ({@link Op#ENQUEUE_TRANSIENT}), held in the broker's memory under its
     * transient-memory limit; without it a client stores them with {@code ASYNC} durability instead.
     */
    public static final long FEATURE_TRANSIENT_TASKS = 32L;
    /**
     * Feature bit 6: large message bodies streamed in chunks of one frame each: uploads ({@link Op#BODY_OPEN},
     * {@link Op#BODY_CHUNK} under a window, {@link Op#BODY_PUBLISH}, {@link Op#BODY_CLOSE}) and reads
     * ({@link Op#BODY_READ}, one chunk per request); see {@link BodyDescriptor}.
     */
    public static final long FEATURE_LARGE_BODIES = 1L << 6;
    /** The optional features this code has; a connection uses those both sides have. */
    public static final long FEATURES = FEATURE_STREAMS | FEATURE_ENCODED_BATCHES | FEATURE_XA | FEATURE_DURABLE_ACKS
            | FEATURE_GUARDED_DELETES | FEATURE_TRANSIENT_TASKS
            | FEATURE_LARGE_BODIES;

    /**
     * 16 MiB: twice the engine's default largest record (8 MiB), so one record always fits a frame. Larger batches
     * are refused on the client before they are sent; larger results are split across frames.
     */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 << 20;
    /** The smallest frame limit a side may ask for: room for a hello and an error message. */
    public static final int MIN_FRAME_BYTES = 64 << 10;
    /** Until the handshake is done, frames are limited to this, so a stranger cannot make us buffer 16 MiB. */
    public static final int HANDSHAKE_FRAME_BYTES = 64 << 10;
    public static final int DEFAULT_HEARTBEAT_MILLIS = 10_000;
    /** A side that hears nothing for this many heartbeat intervals takes the peer for dead. */
    public static final int MISSED_HEARTBEATS = 3;

    static final String FRAME_DECODER = "frame-decoder";
    static final String IDLE = "idle";
    static final String FLUSH = "flush-consolidation";

    private Protocol() {
    }

    /**
     * Adds the length-prefixed framing and heartbeats. The frame limit starts at {@link #HANDSHAKE_FRAME_BYTES};
     * {@link #handshakeDone} raises it to what the two sides agreed.
     *
     * <p>Flushes are coalesced: frames written and flushed while a read is in progress go out when the read batch
     * ends, and those flushed outside a read (answers from the writer's completions, frames written from other
     * threads) when the event loop has run the tasks already queued. So the frames one turn of the event loop
     * produces share one write system call instead of one each; none waits for a timer.
     */
    public static void install(ChannelPipeline pipeline, int heartbeatMillis) {
        pipeline.addLast(FLUSH, new FlushConsolidationHandler(
                FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
        pipeline.addLast(FRAME_DECODER, new FrameDecoder(HANDSHAKE_FRAME_BYTES));
        pipeline.addLast("frame-encoder", new LengthFieldPrepender(FrameDescriptor.LENGTH_FIELD_BYTES));
        pipeline.addLast(IDLE, idleHandler(heartbeatMillis));
        pipeline.addLast("heartbeat", new HeartbeatHandler());
    }

    /** After the handshake: frames up to the agreed size, heartbeats at the agreed interval. */
    public static void handshakeDone(ChannelPipeline pipeline, int maxFrameBytes, int heartbeatMillis) {
        ((FrameDecoder) pipeline.get(FRAME_DECODER)).limit(maxFrameBytes);
        pipeline.replace(IDLE, IDLE, idleHandler(heartbeatMillis));
    }

    private static IdleStateHandler idleHandler(int heartbeatMillis) {
        return new IdleStateHandler((long) heartbeatMillis * MISSED_HEARTBEATS, heartbeatMillis, 0,
                TimeUnit.MILLISECONDS);
    }
}
