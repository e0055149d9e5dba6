package io.mikyu.engine.body;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.LargeBody;
import io.mikyu.engine.internal.body.BodyStore;
import io.mikyu.engine.internal.body.BodyWriter;
import io.mikyu.engine.internal.format.FileHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Body files: chunked writes, lazy checked reads, pending files after a crash, the sweep. */
class BodyStoreTest {

    @TempDir
    Path data;

    @Test
    void aBodyStreamedInIsReadBackByteForByte() throws Exception {
        BodyStore store = BodyStore.open(data, 4096);
        long length = 40L * 1024 * 1024 + 17; // many chunks and a partial last one
        LargeBody ref;
        try (BodyWriter w = store.create()) {
            assertThat(w.writeFrom(new PatternStream(length, 7))).isEqualTo(length);
            ref = w.publish();
        }
        assertThat(ref.length()).isEqualTo(length);
        try (InputStream in = store.open(ref.id())) {
            assertThat(digest(in)).isEqualTo(digest(new PatternStream(length, 7)));
        }
        // a few more bytes than the body: one chunk header per chunk, the file header and the trailer
        assertThat(Files.size(data.resolve("bodies").resolve(ref.id() + ".body")))
                .isEqualTo(FileHeader.LENGTH + length + 8L * (length / 4096 + 1) + 20);
    }

    @Test
    void writesOfAnySizeMakeTheSameBody() throws Exception {
        BodyStore store = BodyStore.open(data, 1000);
        byte[] body = new byte[10_000];
        new SplittableRandom(3).nextBytes(body);
        LargeBody ref;
        try (BodyWriter w = store.create()) {
            w.write(body[0]);
            w.write(body, 1, 999);
            w.write(body, 1000, 2500);
            w.write(body, 3500, 6500);
            assertThat(w.length()).isEqualTo(10_000);
            ref = w.publish();
        }
        try (InputStream in = store.open(ref.id())) {
            assertThat(in.readAllBytes()).isEqualTo(body);
        }
    }

    @Test
    void anEmptyBodyIsABodyOfNoBytes() throws Exception {
        BodyStore store = BodyStore.open(data);
        LargeBody ref;
        try (BodyWriter w = store.create()) {
            ref = w.publish();
        }
        assertThat(ref.length()).isZero();
        try (InputStream in = store.open(ref.id())) {
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void aDamagedChunkIsAnErrorNamingTheFileBeforeAnyOfItsBytesIsHandedOut() throws Exception {
        BodyStore store = BodyStore.open(data, 1024);
        LargeBody ref = publish(store, new byte[5000]);
        Path file = data.resolve("bodies").resolve(ref.id() + ".body");
        long second = FileHeader.LENGTH + 8 + 1024;
        flipByte(file, second + 8 + 100);
        try (InputStream in = store.open(ref.id())) {
            assertThat(in.readNBytes(1024)).hasSize(1024);
            assertThatThrownBy(in::read)
                    .isInstanceOf(IOException.class)
                    .hasCauseInstanceOf(CorruptionException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("chunk checksum mismatch")
                    .hasMessageContaining(String.valueOf(second));
        }
    }

    @Test
    void aFileCutAtAChunkBoundaryIsDamageNotAShorterBody() throws Exception {
        BodyStore store = BodyStore.open(data, 1024);
        LargeBody ref = publish(store, new byte[4096]);
        Path file = data.resolve("bodies").resolve(ref.id() + ".body");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(FileHeader.LENGTH + 2 * (8 + 1024));
        }
        try (InputStream in = store.open(ref.id())) {
            assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class)
                    .hasMessageContaining("file ends inside the body");
        }
    }

    @Test
    void aTrailerThatDisagreesWithTheChunksIsDamage() throws Exception {
        BodyStore store = BodyStore.open(data, 1024);
        LargeBody ref = publish(store, new byte[3000]);
        Path file = data.resolve("bodies").resolve(ref.id() + ".body");
        // drop the middle chunk: the rest still checks chunk by chunk, the trailer does not
        byte[] all = Files.readAllBytes(file);
        int chunk = 8 + 1024;
        byte[] cut = new byte[all.length - chunk];
        System.arraycopy(all, 0, cut, 0, FileHeader.LENGTH + chunk);
        System.arraycopy(all, FileHeader.LENGTH + 2 * chunk, cut, FileHeader.LENGTH + chunk,
                all.length - FileHeader.LENGTH - 2 * chunk);
        Files.write(file, cut);
        try (InputStream in = store.open(ref.id())) {
            assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class)
                    .hasMessageContaining("trailer says 3000 bytes in 3 chunks");
        }
    }

    @Test
    void anUnpublishedBodyIsNeverVisibleAndItsFileIsGoneOnClose() throws Exception {
        BodyStore store = BodyStore.open(data);
        BodyWriter w = store.create();
        w.write(new byte[1000]);
        assertThat(store.exists(w.id())).isFalse();
        assertThat(store.publishedIds()).isEmpty();
        w.close();
        assertThat(Files.list(data.resolve("bodies").resolve("pending"))).isEmpty();
    }

    @Test
    void aBodyLeftPendingByACrashIsDeletedOnOpen() throws Exception {
        BodyStore store = BodyStore.open(data);
        BodyWriter w = store.create();
        w.write(new byte[300_000]); // a chunk on disk, the writer never published nor closed: the process died
        LargeBody kept = publish(store, new byte[10]);

        BodyStore reopened = BodyStore.open(data);
        assertThat(reopened.recoveredPending()).isEqualTo(1);
        assertThat(Files.list(data.resolve("bodies").resolve("pending"))).isEmpty();
        assertThat(reopened.publishedIds()).containsExactly(kept.id());
    }

    @Test
    void theSweepDeletesWhatNoRecordNamesAndKeepsWhatWaitsForItsRecord() throws Exception {
        BodyStore store = BodyStore.open(data);
        LargeBody referred = publish(store, new byte[10]);
        LargeBody orphan = publish(store, new byte[10]);
        BodyWriter upload = store.create(); // published, its task not yet written: the upload is still open
        LargeBody waiting = upload.publish();

        assertThat(store.sweep(() -> Set.of(referred.id()))).as("the first sweep that finds it unnamed").isEmpty();
        List<String> deleted = store.sweep(() -> Set.of(referred.id()));

        assertThat(deleted).containsExactly(orphan.id());
        assertThat(store.publishedIds()).containsExactlyInAnyOrder(referred.id(), waiting.id());
        upload.close();
        assertThat(store.sweep(Set::of)).isEmpty();
        assertThat(store.sweep(Set::of)).containsExactlyInAnyOrder(referred.id(), waiting.id());
        assertThat(store.publishedIds()).isEmpty();
    }

    @Test
    void aBodyNamedAgainBetweenTwoSweepsIsKept() throws Exception {
        BodyStore store = BodyStore.open(data);
        LargeBody ref = publish(store, new byte[10]);
        assertThat(store.sweep(Set::of)).isEmpty(); // e.g. asked while its task moved from a queue to its DLQ
        assertThat(store.sweep(() -> Set.of(ref.id()))).isEmpty();
        assertThat(store.sweep(Set::of)).isEmpty();
        assertThat(store.exists(ref.id())).isTrue();
    }

    @Test
    void closingAPublishedUploadHandsItToTheSweep() throws Exception {
        BodyStore store = BodyStore.open(data);
        LargeBody ref;
        try (BodyWriter w = store.create()) {
            ref = w.publish();
            assertThat(store.sweep(Set::of)).isEmpty();
            assertThat(store.sweep(Set::of)).as("kept while the upload is open").isEmpty();
        }
        assertThat(store.sweep(Set::of)).isEmpty();
        assertThat(store.sweep(Set::of)).containsExactly(ref.id());
    }

    @Test
    void idsThatAreNotBodyIdsAreRefused() throws Exception {
        BodyStore store = BodyStore.open(data);
        assertThatThrownBy(() -> store.open("../../store.id")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a body id");
        assertThatThrownBy(() -> BodyStore.open(data, 2 << 20)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chunk size");
    }

    static LargeBody publish(BodyStore store, byte[] body) throws IOException {
        try (BodyWriter w = store.create()) {
            w.writeFrom(new ByteArrayInputStream(body));
            return w.publish();
        }
    }

    static void flipByte(Path file, long at) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, at);
            b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
            ch.write(b, at);
        }
    }

    static byte[] digest(InputStream in) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        byte[] buf = new byte[64 * 1024];
        for (int n; (n = in.read(buf)) >= 0; ) {
            md.update(buf, 0, n);
        }
        return md.digest();
    }

    /** A body of any length made on the fly: its bytes never exist all at once. */
    static final class PatternStream extends InputStream {
        private final long length;
        private final int seed;
        private long pos;

        PatternStream(long length, int seed) {
            this.length = length;
            this.seed = seed;
        }

        @Override
        public int read() {
            return pos < length ? (int) ((pos++ * 31 + seed) & 0xff) : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos >= length) {
                return -1;
            }
            int n = (int) Math.min(len, length - pos);
            for (int i = 0; i < n; i++) {
                b[off + i] = (byte) ((pos++ * 31 + seed) & 0xff);
            }
            return n;
        }
    }

}
