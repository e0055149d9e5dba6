package io.mikyu.broker.server;

import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.protocol.FrameDescriptor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How an answer's items are laid out in frames: each frame a count and its items, all but the last flagged MORE. */
class ReplyTest {

    private static final int ITEM = 64 << 10;

    @Test
    void itemsOfKnownSizeFillFramesOfAFixedSizeInsteadOfGrowingOne() {
        Reply reply = new Reply(UnpooledByteBufAllocator.DEFAULT, 7, 16 << 20);
        Reply.Items items = reply.items();
        for (int i = 0; i < 40; i++) {
            int value = i;
            items.add(ITEM, b -> b.writeInt(value).writeZero(ITEM - 4));
        }
        items.end();

        List<ByteBuf> frames = reply.frames();
        int perFrame = (Reply.ITEMS_FRAME_BYTES - FrameDescriptor.HEADER_BYTES - 4) / ITEM;
        assertThat(frames).hasSize((40 + perFrame - 1) / perFrame);
        int next = 0;
        for (int f = 0; f < frames.size(); f++) {
            ByteBuf frame = frames.get(f);
            assertThat(frame.capacity()).as("frame %d's buffer", f).isLessThanOrEqualTo(Reply.ITEMS_FRAME_BYTES);
            assertThat(FrameDescriptor.flags(frame) & FrameDescriptor.FLAG_MORE).isEqualTo(f < frames.size() - 1 ? 1 : 0);
            int count = frame.getInt(FrameDescriptor.HEADER_BYTES);
            for (int i = 0; i < count; i++) {
                assertThat(frame.getInt(FrameDescriptor.HEADER_BYTES + 4 + i * ITEM)).isEqualTo(next++);
            }
        }
        assertThat(next).isEqualTo(40);
        reply.release();
    }

    @Test
    void anItemLargerThanTheUsualFrameGetsAFrameOfItsOwnSize() {
        Reply reply = new Reply(UnpooledByteBufAllocator.DEFAULT, 7, 16 << 20);
        Reply.Items items = reply.items();
        items.add(100, b -> b.writeZero(100));
        items.add(1 << 20, b -> b.writeZero(1 << 20));
        items.end();

        assertThat(reply.frames()).hasSize(2);
        assertThat(reply.frames().get(1).getInt(FrameDescriptor.HEADER_BYTES)).isEqualTo(1);
        assertThat(reply.frames().get(1).readableBytes()).isEqualTo(FrameDescriptor.HEADER_BYTES + 4 + (1 << 20));
        reply.release();
    }

    @Test
    void anItemOverTheFrameLimitOrOfTheWrongSizeIsRefused() {
        Reply reply = new Reply(UnpooledByteBufAllocator.DEFAULT, 7, 64 << 10);
        assertThatThrownBy(() -> reply.items().add(ITEM, b -> b.writeZero(ITEM)))
                .isInstanceOf(RecordTooLargeException.class).hasMessageContaining("frame limit of 65536");
        reply.release();
        Reply other = new Reply(UnpooledByteBufAllocator.DEFAULT, 7, 64 << 10);
        assertThatThrownBy(() -> other.items().add(10, b -> b.writeZero(9)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("declared 10 bytes and wrote 9");
        other.release();
    }
}
