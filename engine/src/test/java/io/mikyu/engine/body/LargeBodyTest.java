package io.mikyu.engine.body;

import io.mikyu.engine.BodyUpload;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LargeBody;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.mikyu.engine.body.BodyStoreTest.PatternStream;
import static io.mikyu.engine.body.BodyStoreTest.digest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Large bodies through the engine's API: a task names its body, the body is read back as a stream, and it is kept
 * exactly while an unfinished task names it (also in a dead-letter queue and across a reopen), then deleted.
 */
class LargeBodyTest {

    private static final Duration LEASE = Duration.ofMinutes(5);
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path data;

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().housekeepingInterval(Duration.ofMillis(20)).build());
    }

    private static LargeBody upload(Mikyu store, long length, int seed) throws Exception {
        try (BodyUpload up = store.uploadBody()) {
            up.writeFrom(new PatternStream(length, seed));
            return up.publish();
        }
    }

    private static long enqueueNaming(TaskQueue q, Mikyu store, long length, int seed) throws Exception {
        try (BodyUpload up = store.uploadBody()) {
            up.writeFrom(new PatternStream(length, seed));
            LargeBody body = up.publish();
            return q.enqueue(Task.of("small part").withHeaders(body.addTo(Headers.of("k", "v"))));
        }
    }

    private Path fileOf(LargeBody body) {
        return data.resolve("bodies").resolve(body.id() + ".body");
    }

    /** Waits until the sweep has run twice since now: an orphan made now is deleted. */
    private void awaitTwoSweeps(Mikyu store) throws Exception {
        LargeBody orphan = upload(store, 10, 0);
        await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(orphan)));
    }

    @Test
    void aTaskNamesItsBodyAndTheConsumerReadsItAsAStream() throws Exception {
        long length = 30L * 1024 * 1024 + 5;
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("files");
            enqueueNaming(q, store, length, 1);
            LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            assertThat(t.payloadAsString()).isEqualTo("small part");
            assertThat(t.headers().getString("k")).isEqualTo("v");
            LargeBody body = LargeBody.of(t.headers()).orElseThrow();
            assertThat(body.length()).isEqualTo(length);
            try (InputStream in = store.openBody(body)) {
                assertThat(digest(in)).isEqualTo(digest(new PatternStream(length, 1)));
            }
        }
    }

    @Test
    void aBodyIsDeletedOnceItsTaskIsAckedAndKeptUntilThen() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("files");
            enqueueNaming(q, store, 100_000, 2);
            LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            LargeBody body = LargeBody.of(t.headers()).orElseThrow();
            awaitTwoSweeps(store);
            assertThat(fileOf(body)).as("named by a leased task").exists();
            q.ack(t.token());
            await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(body)));
            assertThatThrownBy(() -> store.openBody(body)).isInstanceOf(MikyuException.class)
                    .hasMessageContaining("no body " + body.id());
        }
    }

    @Test
    void aDeadLetteredTaskKeepsItsBodyInTheDeadLetterQueue() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("files", TaskQueueConfig.defaults().withMaxAttempts(1));
            enqueueNaming(q, store, 50_000, 3);
            LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            q.nack(t.token(), null, "cannot parse");
            awaitTwoSweeps(store);
            LeasedTask dead = q.deadLetters().dequeue(1, LEASE, Duration.ZERO, null).get(0);
            LargeBody body = LargeBody.of(dead.headers()).orElseThrow();
            try (InputStream in = store.openBody(body)) {
                assertThat(digest(in)).isEqualTo(digest(new PatternStream(50_000, 3)));
            }
            q.deadLetters().ack(dead.token());
            await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(body)));
        }
    }

    @Test
    void aPurgedQueueFreesItsBodies() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("files");
            enqueueNaming(q, store, 1000, 4);
            enqueueNaming(q, store, 1000, 5);
            List<LeasedTask> browsed = q.browse(10, null);
            assertThat(browsed).hasSize(2);
            q.purge();
            for (LeasedTask t : browsed) {
                LargeBody body = LargeBody.of(t.headers()).orElseThrow();
                await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(body)));
            }
        }
    }

    @Test
    void aBodyNoTaskNamesIsDeletedAndOneStillUploadingIsKept() throws Exception {
        try (Mikyu store = open()) {
            LargeBody orphan = upload(store, 1000, 6); // published, its task never written
            try (BodyUpload sending = store.uploadBody()) {
                LargeBody kept = sending.publish(); // its task is being written
                await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(orphan)));
                awaitTwoSweeps(store);
                assertThat(fileOf(kept)).exists();
            }
        }
    }

    @Test
    void aReopenedStoreKnowsWhichBodiesItsTasksName() throws Exception {
        LargeBody body;
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("files");
            enqueueNaming(q, store, 70_000, 7);
            body = LargeBody.of(q.browse(1, null).get(0).headers()).orElseThrow();
        }
        try (Mikyu store = open()) {
            awaitTwoSweeps(store);
            assertThat(fileOf(body)).exists();
            TaskQueue q = store.taskQueue("files");
            LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            try (InputStream in = store.openBody(LargeBody.of(t.headers()).orElseThrow())) {
                assertThat(digest(in)).isEqualTo(digest(new PatternStream(70_000, 7)));
            }
            q.ack(t.token());
            await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(body)));
        }
    }

    @Test
    void malformedBodyHeadersAreRefusedClearly() {
        assertThatThrownBy(() -> LargeBody.of(Headers.of(LargeBody.ID_HEADER, "0123456789abcdef0123456789abcdef")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(LargeBody.LENGTH_HEADER);
        assertThatThrownBy(() -> new LargeBody("../x", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(LargeBody.of(Headers.EMPTY)).isEmpty();
    }
}
