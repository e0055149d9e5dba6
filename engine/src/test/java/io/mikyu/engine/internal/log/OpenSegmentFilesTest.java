package io.mikyu.engine.internal.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OpenSegmentFilesTest {

    @TempDir
    Path dir;

    private SegmentFile file(OpenSegmentFiles files, String name, boolean writable, AtomicBoolean unsynced)
            throws IOException {
        Path p = dir.resolve(name);
        if (!Files.exists(p)) {
            Files.writeString(p, name);
        }
        return files.register(p, writable, unsynced::get);
    }

    private static String read(OpenSegmentFiles files, SegmentFile f) throws IOException {
        FileChannel ch = files.acquire(f);
        try {
            ByteBuffer buf = ByteBuffer.allocate((int) ch.size());
            ch.read(buf, 0);
            return new String(buf.array(), StandardCharsets.UTF_8);
        } finally {
            files.release(f);
        }
    }

    @Test
    void keepsNoMoreThanItsBoundOpenAndReopensAClosedOneOnUse() throws IOException {
        OpenSegmentFiles files = new OpenSegmentFiles(3);
        AtomicBoolean synced = new AtomicBoolean(false);
        List<SegmentFile> all = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            SegmentFile f = file(files, "f" + i, false, synced);
            all.add(f);
            assertThat(read(files, f)).isEqualTo("f" + i);
            assertThat(files.openCount()).isLessThanOrEqualTo(3);
        }
        assertThat(files.closedToMakeRoom()).isEqualTo(7);
        assertThat(all.get(0).channel).as("the least recently used was closed").isNull();
        assertThat(read(files, all.get(0))).isEqualTo("f0");
        assertThat(files.openCount()).isEqualTo(3);
    }

    @Test
    void neverClosesAChannelInUseNorOneWithDataNotYetFsynced() throws IOException {
        OpenSegmentFiles files = new OpenSegmentFiles(1);
        AtomicBoolean unsynced = new AtomicBoolean(true);
        AtomicBoolean synced = new AtomicBoolean(false);
        SegmentFile dirty = file(files, "dirty", true, unsynced);
        FileChannel dirtyChannel = files.acquire(dirty);
        files.release(dirty);
        SegmentFile busy = file(files, "busy", false, synced);
        FileChannel busyChannel = files.acquire(busy);

        SegmentFile other = file(files, "other", false, synced);
        assertThat(read(files, other)).isEqualTo("other");
        files.trim(); // what the store's timer does: "other" is idle now

        assertThat(dirtyChannel.isOpen()).as("unsynced data keeps the writer's channel").isTrue();
        assertThat(busyChannel.isOpen()).as("a channel in use stays open").isTrue();
        assertThat(files.openCount()).as("over the bound while nothing else can be closed").isEqualTo(2);

        files.release(busy);
        unsynced.set(false);
        assertThat(read(files, other)).isEqualTo("other");
        files.trim();
        assertThat(dirtyChannel.isOpen()).isFalse();
        assertThat(busyChannel.isOpen()).isFalse();
        assertThat(files.openCount()).isEqualTo(1);
    }

    @Test
    void aClosedFileFailsAsClosedAndHoldsNoDescriptor() throws IOException {
        OpenSegmentFiles files = new OpenSegmentFiles(4);
        SegmentFile f = file(files, "gone", false, new AtomicBoolean(false));
        FileChannel ch = files.acquire(f);
        files.release(f);
        files.close(f);
        assertThat(ch.isOpen()).isFalse();
        assertThat(files.openCount()).isZero();
        assertThatThrownBy(() -> files.acquire(f)).isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void aFileReplacedUnderItsPathIsNotReopenedAsItsOwn() throws IOException {
        OpenSegmentFiles files = new OpenSegmentFiles(1);
        AtomicBoolean synced = new AtomicBoolean(false);
        SegmentFile f = file(files, "segment", false, synced);
        assertThat(read(files, f)).isEqualTo("segment");
        assertThat(read(files, file(files, "other", false, synced))).isEqualTo("other"); // closes f's channel
        Path replacement = dir.resolve("compacted");
        Files.writeString(replacement, "compacted");
        Files.move(replacement, f.file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        assertThatThrownBy(() -> files.acquire(f)).isInstanceOf(ClosedChannelException.class);
        assertThat(f.users.get()).isZero();
    }

    @Test
    void aReaderChannelClosedByAnInterruptIsReopened() throws IOException {
        OpenSegmentFiles files = new OpenSegmentFiles(4);
        SegmentFile f = file(files, "interrupted", false, new AtomicBoolean(false));
        FileChannel first = files.acquire(f);
        files.release(f);
        first.close(); // what an interrupted read does to its channel
        assertThat(read(files, f)).isEqualTo("interrupted");
        assertThat(files.openCount()).isEqualTo(1);
    }

    @Test
    void anAdoptedChannelCountsAndIsUsedAsIs() throws IOException {
        OpenSegmentFiles files = new OpenSegmentFiles(2);
        Path p = dir.resolve("adopted");
        FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        ch.write(ByteBuffer.wrap("adopted".getBytes(StandardCharsets.UTF_8)), 0);
        SegmentFile f = files.register(p, true, () -> false);
        files.adopt(f, ch);
        assertThat(files.acquire(f)).isSameAs(ch);
        files.release(f);
        assertThat(files.openCount()).isEqualTo(1);
        assertThatThrownBy(() -> new OpenSegmentFiles(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }
}
