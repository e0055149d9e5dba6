package io.mikyu.broker.server;

import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.protocol.FrameDescriptor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The {@link FrameDescriptor#RESULT} frames of one request, written by the call on its worker thread. A scalar
 * result goes in {@link #body()}; a list goes through {@link #list}, which starts a new frame whenever the next
 * item would push the current one past the agreed frame size, so a large delivery is never refused or cut.
 */
final class Reply {

    private final ByteBufAllocator alloc;
    private final int requestId;
    private final int maxFrameBytes;
    private final List<ByteBuf> frames = new ArrayList<>(1);
    private Runnable afterSent;

    Reply(ByteBufAllocator alloc, int requestId, int maxFrameBytes) {
        this.alloc = alloc;
        this.requestId = requestId;
        this.maxFrameBytes = maxFrameBytes;
        frames.add(newFrame());
    }

    private ByteBuf newFrame() {
        return FrameDescriptor.writeHeader(alloc.buffer(), FrameDescriptor.RESULT, 0, requestId);
    }

    private ByteBuf newFrame(int capacity) {
        return FrameDescriptor.writeHeader(alloc.buffer(capacity), FrameDescriptor.RESULT, 0, requestId);
    }

    /**
     * The size of the frames a list of items of known size is answered in (or the item's, if larger): large enough
     * that a frame's header and count cost nothing, small enough to come from the buffer pool's own chunks.
     */
    static final int ITEMS_FRAME_BYTES = 256 << 10;

    /**
     * The most bytes of records one read or poll answers with: a request for more (a whole log behind) gets this
     * much and asks again from where it ended, so an answer never holds more than a bounded slice of the log in
     * broker memory, however far behind the reader is. 4 MiB is ~1 ms on loopback, so a reader that keeps asking
     * loses little. Independent of the frame size: a smaller frame splits the same answer into more frames.
     */
    long maxResultBytes() {
        return MAX_RESULT_BYTES;
    }

    static final long MAX_RESULT_BYTES = 4 << 20;

    /** The frame a scalar result is written into. */
    ByteBuf body() {
        return frames.get(frames.size() - 1);
    }

    /** {@code count:i32 item*}, in as many frames as it takes, each with its own count. */
    <T> void list(List<T> items, BiConsumer<ByteBuf, T> writer) {
        listUpTo(items, writer, Long.MAX_VALUE);
    }

    /**
     * As {@link #list}, but stops before an item once {@code maxBytes} of items are written (always writing the
     * first): returns how many were written.
     */
    <T> int listUpTo(List<T> items, BiConsumer<ByteBuf, T> writer, long maxBytes) {
        Items out = items();
        int written = 0;
        long bytes = 0;
        for (T item : items) {
            if (written > 0 && bytes >= maxBytes) {
                break;
            }
            bytes += out.add(b -> writer.accept(b, item));
            written++;
        }
        out.end();
        return written;
    }

    /** The agreed frame size. */
    int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** A list written item by item as the items come (a read shown in place), split across frames as needed. */
    Items items() {
        return new Items();
    }

    /** {@code count:i32 item*} per frame; {@link #end} when the last item is written. */
    final class Items {
        private ByteBuf frame = body();
        private int countAt = frame.writerIndex();
        private int count;

        private Items() {
            frame.writeInt(0);
        }

        /**
         * Writes one item of a known {@code size} with {@code writer}, which must write exactly that much. The
         * frame is never grown by copying what it holds: an item that does not fit the room left starts the next
         * frame, of {@link #ITEMS_FRAME_BYTES} or the item's size (a large read answers in frames of that size).
         */
        void add(int size, Consumer<ByteBuf> writer) {
            if (frame.writableBytes() < size) {
                int room = Math.max(size, Math.min(maxFrameBytes, ITEMS_FRAME_BYTES) - FrameDescriptor.HEADER_BYTES - 4);
                if (count > 0) {
                    nextFrame(room);
                } else {
                    frame.capacity(frame.writerIndex() + room); // no item yet: little to copy
                }
            }
            int mark = frame.writerIndex();
            writer.accept(frame);
            if (frame.writerIndex() - mark != size) {
                throw new IllegalStateException("an item declared " + size + " bytes and wrote "
                        + (frame.writerIndex() - mark));
            }
            if (frame.writerIndex() > maxFrameBytes) {
                throw new RecordTooLargeException("an item of " + size + " bytes does not fit the connection's"
                        + " frame limit of " + maxFrameBytes + " bytes");
            }
            count++;
        }

        /**
         * Writes one item with {@code writer} (which may be called a second time, into a new frame, if the item
         * did not fit the current one); returns its size in bytes.
         */
        int add(Consumer<ByteBuf> writer) {
            int mark = frame.writerIndex();
            writer.accept(frame);
            int size = frame.writerIndex() - mark;
            if (frame.writerIndex() > maxFrameBytes && count > 0) {
                frame.writerIndex(mark);
                nextFrame(0);
                writer.accept(frame);
            }
            if (frame.writerIndex() > maxFrameBytes) {
                throw new RecordTooLargeException("an item of " + size + " bytes does not fit the connection's"
                        + " frame limit of " + maxFrameBytes + " bytes");
            }
            count++;
            return size;
        }

        void end() {
            frame.setInt(countAt, count);
        }

        /** Closes the current frame (more follow) and starts the next, with {@code room} bytes for items. */
        private void nextFrame(int room) {
            frame.setInt(countAt, count);
            frame.setByte(FrameDescriptor.FLAGS_OFFSET, FrameDescriptor.FLAG_MORE);
            frame = newFrame(FrameDescriptor.HEADER_BYTES + 4 + room);
            frames.add(frame);
            countAt = frame.writerIndex();
            frame.writeInt(0);
            count = 0;
        }
    }

    /** Something to do once the answer is written (a stream starts pushing after its open is answered). */
    void afterSent(Runnable action) {
        this.afterSent = action;
    }

    Runnable afterSent() {
        return afterSent;
    }

    /** The frames to send, in order; the caller owns them from now on. */
    List<ByteBuf> frames() {
        return frames;
    }

    void release() {
        frames.forEach(ByteBuf::release);
        frames.clear();
    }
}
