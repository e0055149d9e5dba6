package io.mikyu.engine.log;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EncodedBatch;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.spi.AsyncWrites;
import io.mikyu.engine.spi.BatchCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Writes a transport starts on one thread and hears about from a callback, many in flight from that thread. */
class AsyncWritesTest {

    @TempDir
    Path data;

    /** Completions as futures, completed on the continuation executor. */
    private static CompletableFuture<Long> future(List<CompletableFuture<Long>> all) {
        CompletableFuture<Long> f = new CompletableFuture<>();
        all.add(f);
        return f;
    }

    private static AsyncWrites.Completion completing(CompletableFuture<Long> f) {
        return new AsyncWrites.Completion() {
            @Override
            public void completed(long value) {
                f.complete(value);
            }

            @Override
            public void failed(RuntimeException failure) {
                f.completeExceptionally(failure);
            }
        };
    }

    @Test
    void encodedAppendsStartedBackToBackFromOneThreadAreEachWrittenIntactAndSurviveAReopen() throws Exception {
        ExecutorService continuation = Executors.newSingleThreadExecutor();
        List<CompletableFuture<Long>> done = new ArrayList<>();
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            AsyncWrites async = (AsyncWrites) q;
            for (int i = 0; i < 200; i++) {
                EncodedBatch batch = BatchCodec.encode(List.of(Entry.of("a-" + i), Entry.of("b-" + i)));
                assertThat(async.tryAppendEncodedAsync(batch, i % 10 == 0 ? Durability.SYNC : Durability.ASYNC,
                        continuation, completing(future(done)))).isTrue();
            }
            List<Long> offsets = new ArrayList<>();
            for (CompletableFuture<Long> f : done) {
                offsets.add(f.get(10, TimeUnit.SECONDS));
            }
            assertThat(offsets).containsExactlyElementsOf(IntStream.range(0, 200).mapToObj(i -> 2L * i).toList());
        } finally {
            continuation.shutdown();
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.log("events").read(0, 1000)).extracting(Record::payloadAsString)
                    .containsExactlyElementsOf(IntStream.range(0, 200)
                            .boxed().flatMap(i -> java.util.stream.Stream.of("a-" + i, "b-" + i)).toList());
        }
    }

    @Test
    void aBatchWithADirectCopyIsWrittenFromThatCopyWhichGetsItsAssignedOffset() throws Exception {
        ExecutorService continuation = Executors.newSingleThreadExecutor();
        List<CompletableFuture<Long>> done = new ArrayList<>();
        List<ByteBuffer> copies = new ArrayList<>();
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            q.append(Entry.of("before"));
            for (int i = 0; i < 50; i++) {
                byte[] bytes = BatchCodec.encode(List.of(Entry.of("a-" + i), Entry.of("b-" + i))).bytes();
                // Within a larger buffer, as a received frame holds it: the copy is the part from position to limit.
                ByteBuffer frame = ByteBuffer.allocateDirect(bytes.length + 16);
                frame.position(7);
                frame.put(bytes).flip().position(7);
                copies.add(frame.duplicate());
                assertThat(((AsyncWrites) q).tryAppendEncodedAsync(EncodedBatch.wrap(bytes, frame),
                        i % 5 == 0 ? Durability.SYNC : Durability.ASYNC, continuation, completing(future(done))))
                        .isTrue();
            }
            for (int i = 0; i < 50; i++) {
                long first = done.get(i).get(10, TimeUnit.SECONDS);
                assertThat(first).isEqualTo(1 + 2L * i);
                assertThat(copies.get(i).order(ByteOrder.LITTLE_ENDIAN).getLong(7 + BatchDescriptor.BASE_OFFSET_OFFSET))
                        .as("offset written into the copy the writer wrote").isEqualTo(first);
            }
        } finally {
            continuation.shutdown();
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.log("events").read(1, 1000)).extracting(Record::payloadAsString)
                    .containsExactlyElementsOf(IntStream.range(0, 50)
                            .boxed().flatMap(i -> java.util.stream.Stream.of("a-" + i, "b-" + i)).toList());
        }
    }

    @Test
    void aDirectCopyMustBeDirectAndHoldExactlyTheBatch() {
        byte[] bytes = BatchCodec.encode(List.of(Entry.of("x"))).bytes();
        assertThatThrownBy(() -> EncodedBatch.wrap(bytes, ByteBuffer.wrap(bytes)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a direct buffer");
        assertThatThrownBy(() -> EncodedBatch.wrap(bytes, ByteBuffer.allocateDirect(bytes.length + 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bytes.length + " bytes");
    }

    @Test
    void aMalformedEncodedBatchIsRefusedByTheCallItself() {
        try (Mikyu store = Mikyu.open(data)) {
            AsyncWrites async = (AsyncWrites) store.createLog("events");
            byte[] bytes = BatchCodec.encode(List.of(Entry.of("x"))).bytes();
            bytes[bytes.length - 1] ^= 1;
            assertThatThrownBy(() -> async.tryAppendEncodedAsync(EncodedBatch.wrap(bytes), Durability.ASYNC,
                    Runnable::run, completing(new CompletableFuture<>())))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CRC32C");
            assertThat(store.log("events").endOffset()).isZero();
        }
    }

    @Test
    void asyncEnqueuesJoinTheQueueBeforeTheirCompletionAndKeepTheirOrder() throws Exception {
        ExecutorService continuation = Executors.newSingleThreadExecutor();
        List<CompletableFuture<Long>> done = new ArrayList<>();
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue jobs = store.createTaskQueue("jobs");
            AsyncWrites async = (AsyncWrites) jobs;
            for (int i = 0; i < 100; i++) {
                assertThat(async.tryEnqueueAsync(List.of(Task.of("job-" + i)), Durability.ASYNC, continuation,
                        completing(future(done)))).isTrue();
            }
            long last = done.get(99).get(10, TimeUnit.SECONDS);
            assertThat(jobs.counts().ready()).as("ready once the last completion came").isEqualTo(100);
            assertThat(last).isEqualTo(done.get(0).get() + 99);
            List<LeasedTask> taken = jobs.dequeue(100, Duration.ofSeconds(30), Duration.ZERO, null);
            assertThat(taken).extracting(LeasedTask::payloadAsString)
                    .containsExactlyElementsOf(IntStream.range(0, 100).mapToObj(i -> "job-" + i).toList());
        } finally {
            continuation.shutdown();
        }
    }

    @Test
    void anEnqueueThatWouldBePacedIsNotStartedAsync() throws Exception {
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().paceProducersAbove(10).build())) {
            TaskQueue jobs = store.createTaskQueue("jobs");
            for (int i = 0; i < 20; i++) {
                jobs.enqueue(Task.of("job-" + i));
            }
            jobs.dequeue(1, Duration.ofSeconds(30), Duration.ZERO, null); // a consumer is taking: pacing is on
            assertThat(((AsyncWrites) jobs).tryEnqueueAsync(List.of(Task.of("more")), Durability.ASYNC,
                    Runnable::run, completing(new CompletableFuture<>()))).isFalse();
            assertThat(jobs.counts().ready()).isEqualTo(19);
        }
    }
}
