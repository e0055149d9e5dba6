package io.mikyu.broker.server;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.BodyUpload;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LargeBody;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Large bodies through a broker ({@code Mikyu.dial(...).uploadBody/openBody}): chunks of one frame each, a window of
 * chunks per upload, reads one chunk per request; permissions on the queue; uploads a client abandons are deleted.
 */
@Timeout(120)
class RemoteLargeBodyTest {

    private static final EngineConfig ENGINE = EngineConfig.builder().maxRecordBytes(256 << 10)
            .housekeepingInterval(Duration.ofMillis(100)).build();

    @TempDir
    Path dir;

    @Test
    void aBodyOfManyChunksUploadedThroughTheBrokerIsReadBackByteForByteByAnotherClient() throws Exception {
        long length = (5L << 20) + 12_345;
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"), ENGINE, o -> o)) {
            Mikyu producer = broker.dial();
            Mikyu consumer = broker.dial();
            TaskQueue queue = producer.createTaskQueue("big");
            LargeBody body;
            try (BodyUpload upload = producer.uploadBody("big")) {
                byte[] head = Patterns.bytes(0, 1000);
                upload.write(head, 0, head.length);
                upload.writeFrom(Patterns.stream(1000, length - 1000));
                body = upload.publish();
                queue.enqueue(Task.of("small part").withHeaders(body.addTo(Headers.EMPTY)));
            }
            assertThat(body.length()).isEqualTo(length);

            LeasedTask got = consumer.taskQueue("big").dequeue(Duration.ofSeconds(30));
            LargeBody named = LargeBody.of(got.headers()).orElseThrow();
            assertThat(named).isEqualTo(body);
            try (InputStream in = consumer.openBody("big", named)) {
                assertThat(Patterns.sha256(in)).isEqualTo(Patterns.sha256(Patterns.stream(0, length)));
            }
            assertThat(broker.store().taskQueue("big").counts().inFlight()).isOne();
        }
    }

    @Test
    void aSmallRoundTripOnTheSameConnectionPassesAnUploadThatIsStillStreaming() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"), ENGINE, o -> o)) {
            Mikyu client = broker.dial();
            TaskQueue small = client.createTaskQueue("small");
            AtomicBoolean smallDone = new AtomicBoolean();
            AtomicLong streamed = new AtomicLong();
            // The upload's source ends only once the small round trip is done: if the upload held the connection
            // until its end, the round trip could never finish and neither could the upload.
            InputStream endless = new InputStream() {
                @Override
                public int read() {
                    throw new UnsupportedOperationException();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (smallDone.get() && streamed.get() > (8L << 20)) {
                        return -1;
                    }
                    int n = Math.min(len, 64 << 10);
                    streamed.addAndGet(n);
                    return n;
                }
            };
            CompletableFuture<LargeBody> large = CompletableFuture.supplyAsync(() -> {
                try (BodyUpload upload = client.uploadBody("small")) {
                    upload.writeFrom(endless);
                    return upload.publish();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> streamed.get() > (4L << 20));
            small.enqueue(Task.of("hello"));
            LeasedTask got = small.dequeue(Duration.ofSeconds(30));
            assertThat(got.payloadAsString()).isEqualTo("hello");
            small.ack(got.token());
            assertThat(large).as("the upload is still streaming when the small round trip is done").isNotDone();
            smallDone.set(true);
            LargeBody body = large.get(60, TimeUnit.SECONDS);
            assertThat(body.length()).isEqualTo(streamed.get());
        }
    }

    @Test
    void anUploadTheClientLeavesUnfinishedOrUnnamedIsDeleted() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"), ENGINE, o -> o)) {
            Path bodies = dir.resolve("data").resolve("bodies");
            Mikyu unfinished = Mikyu.dial(broker.uri());
            BodyUpload cut = unfinished.uploadBody("q");
            cut.writeFrom(Patterns.stream(0, 3L << 20));
            await().atMost(Duration.ofSeconds(30)).until(() -> files(bodies.resolve("pending")) == 1);
            unfinished.close(); // the connection ends with the upload open

            Mikyu unnamed = Mikyu.dial(broker.uri());
            BodyUpload published = unnamed.uploadBody("q");
            published.writeFrom(Patterns.stream(0, 2L << 20));
            published.publish();
            assertThat(files(bodies)).isOne();
            unnamed.close(); // published, but no task names it

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(files(bodies.resolve("pending"))).as("pending bodies").isZero();
                assertThat(files(bodies)).as("published bodies").isZero();
            });
        }
    }

    @Test
    void uploadingTakesProduceAndReadingTakesConsumeOnTheQueue() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"), ENGINE,
                o -> o.withRealm(BrokerSecurityTest.realm()))) {
            broker.store().createTaskQueue("orders");
            try (Mikyu writer = Mikyu.dial(broker.uri(), Map.of("user", "writer", "password", "w-pass"));
                 Mikyu reader = Mikyu.dial(broker.uri(), Map.of("user", "reader", "password", "r-pass"))) {
                assertThatThrownBy(() -> reader.uploadBody("orders")).isInstanceOf(AccessDeniedException.class);
                assertThatThrownBy(() -> writer.uploadBody("secrets")).isInstanceOf(AccessDeniedException.class);
                LargeBody body;
                try (BodyUpload upload = writer.uploadBody("orders")) {
                    upload.writeFrom(Patterns.stream(0, 100_000));
                    body = upload.publish();
                    writer.taskQueue("orders").enqueue(Task.of("x").withHeaders(body.addTo(Headers.EMPTY)));
                }
                assertThatThrownBy(() -> writer.openBody("orders", body)).isInstanceOf(AccessDeniedException.class);
                assertThatThrownBy(() -> reader.openBody("secrets", body))
                        .isInstanceOf(AccessDeniedException.class);
                try (InputStream in = reader.openBody("orders", body)) {
                    assertThat(in.readAllBytes()).isEqualTo(Patterns.bytes(0, 100_000));
                }
            }
        }
    }

    private static long files(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> p.toString().endsWith(".body")).count();
        }
    }

    /** Bodies of a known pattern, generated rather than held. */
    static final class Patterns {
        static byte at(long pos) {
            return (byte) (pos * 31 + (pos >>> 11));
        }

        static byte[] bytes(long from, int length) {
            byte[] b = new byte[length];
            for (int i = 0; i < length; i++) {
                b[i] = at(from + i);
            }
            return b;
        }

        static InputStream stream(long from, long length) {
            return new InputStream() {
                long pos = from;
                final long end = from + length;

                @Override
                public int read() {
                    return pos < end ? at(pos++) & 0xff : -1;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (pos >= end) {
                        return -1;
                    }
                    int n = (int) Math.min(len, end - pos);
                    for (int i = 0; i < n; i++) {
                        b[off + i] = at(pos++);
                    }
                    return n;
                }
            };
        }

        static String sha256(InputStream in) throws Exception {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[64 << 10];
            int n;
            while ((n = in.read(buf)) >= 0) {
                d.update(buf, 0, n);
            }
            return java.util.HexFormat.of().formatHex(d.digest());
        }
    }
}
