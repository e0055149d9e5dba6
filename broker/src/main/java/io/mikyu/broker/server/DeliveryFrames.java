package io.mikyu.broker.server;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.protocol.FrameDescriptor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.util.ArrayList;
import java.util.List;

/**
 * The DELIVERY frames of one take of a {@link PushStream}: its items encoded in push order while they fit the
 * stream's byte credit, split into more frames where one would pass the connection's frame limit. The items that do
 * not go are listed to be given back. Built once per take: nothing is allocated per item beyond its
 * {@link PushedItem}.
 */
final class DeliveryFrames {

    /** The frames to write, each with at least one item; none if no item went. */
    final List<ByteBuf> frames = new ArrayList<>(1);
    /** The items written, in push order. */
    final List<PushedItem> accepted;
    /** The tokens of the items not written (over the byte credit or too large): they go back. */
    final List<LeaseToken> over = new ArrayList<>();
    /** The encoded bytes of {@link #accepted}. */
    long bytes;
    /** An item larger than the frame limit stopped the batch: the stream fails with it. */
    RecordTooLargeException tooLarge;

    private final ByteBufAllocator alloc;
    private final int streamId;

    private DeliveryFrames(ByteBufAllocator alloc, int streamId, int acceptedCapacity) {
        this.alloc = alloc;
        this.streamId = streamId;
        this.accepted = new ArrayList<>(acceptedCapacity);
    }

    /**
     * Encodes {@code items[0, limit)}. {@code budget}: the bytes of credit left; {@code held}: items outstanding
     * already. The first item goes even over the budget when nothing is outstanding, so a stream never stalls on an
     * item larger than its byte credit.
     */
    static <T> DeliveryFrames encode(ByteBufAllocator alloc, int streamId, int maxFrameBytes, PushSource<T> source,
                                     List<T> items, int limit, long budget, int held) {
        DeliveryFrames out = new DeliveryFrames(alloc, streamId, items.size());
        ByteBuf frame = out.newFrame();
        int countAt = frame.writerIndex();
        frame.writeInt(0);
        int count = 0;
        for (int i = 0; i < limit; i++) {
            T item = items.get(i);
            int mark = frame.writerIndex();
            source.write(frame, item);
            int size = frame.writerIndex() - mark;
            if (out.bytes + size > budget && held + out.accepted.size() > 0) {
                frame.writerIndex(mark);
                out.giveBack(source, items, i, limit);
                break;
            }
            if (frame.writerIndex() > maxFrameBytes && count > 0) {
                frame.writerIndex(mark);
                frame.setInt(countAt, count);
                frame = out.newFrame();
                countAt = frame.writerIndex();
                frame.writeInt(0);
                count = 0;
                source.write(frame, item);
            }
            if (frame.writerIndex() > maxFrameBytes) {
                frame.writerIndex(countAt + 4);
                out.tooLarge = new RecordTooLargeException("an item of " + size + " bytes does not fit the"
                        + " connection's frame limit of " + maxFrameBytes + " bytes");
                out.giveBack(source, items, i, limit);
                break;
            }
            out.accepted.add(new PushedItem(source.token(item), size, source.leaseExpiresAt(item)));
            out.bytes += size;
            count++;
        }
        frame.setInt(countAt, count);
        if (count == 0) {
            out.frames.remove(out.frames.size() - 1).release();
        }
        return out;
    }

    private <T> void giveBack(PushSource<T> source, List<T> items, int from, int to) {
        for (int j = from; j < to; j++) {
            over.add(source.token(items.get(j)));
        }
    }

    private ByteBuf newFrame() {
        ByteBuf frame = FrameDescriptor.writeHeader(alloc.buffer(), FrameDescriptor.DELIVERY, 0, streamId);
        frames.add(frame);
        return frame;
    }
}
