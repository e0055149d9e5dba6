package io.mikyu.engine.internal.write;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.StorageFailedException;
import io.mikyu.engine.TimeSource;
import io.mikyu.engine.internal.format.BatchDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The writer's fsyncs beside it ({@link FsyncPipeline}), each rule with a target whose fsyncs the test holds, lets
 * go or fails one by one: a sync append arriving during an fsync gets an fsync of its own at once; completions run in
 * the order of the writes whichever fsync ends first; a failed fsync fails what it covered, and a later fsync that
 * succeeds completes nothing on the stopped target; a later cycle's failed write leaves the earlier one waiting for
 * its fsync; followers are written only once their leader is durable, and once, also when the leader is durable
 * before the writer has finished its cycle.
 */
@Timeout(60)
class FsyncPipelineTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private GroupCommitWriter writer;
    private final HeldTarget txLog = new HeldTarget();
    private final List<Long> completed = new CopyOnWriteArrayList<>();
    private final List<RuntimeException> failed = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        writer = new GroupCommitWriter("test-writer", 1 << 20, new DiskSpaceGuard(dir, 0, TimeSource.system()),
                new WriterMetrics(new SimpleMeterRegistry()));
    }

    @AfterEach
    void stop() {
        txLog.releaseAll();
        writer.close();
    }

    /** A sync append to the held target whose outcome lands in {@link #completed} / {@link #failed}. */
    private void append(WriteTarget target) {
        writer.appendAsync(new AppendRequest(target, new byte[BatchDescriptor.HEADER_LENGTH], true, null,
                new AppendRequest.Callback() {
                    @Override
                    public void completed(long baseOffset) {
                        completed.add(baseOffset);
                    }

                    @Override
                    public void failed(RuntimeException cause) {
                        failed.add(cause);
                    }
                }));
    }

    private HeldPoint nextFsync() throws InterruptedException {
        HeldPoint p = txLog.started.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertThat(p).as("an fsync started").isNotNull();
        return p;
    }

    @Test
    void shouldFsyncAnAppendArrivingDuringAnFsyncBesideItAndCompleteBothInOrderWhenTheLaterEndsFirst()
            throws Exception {
        append(txLog);
        HeldPoint first = nextFsync();
        append(txLog);
        HeldPoint second = nextFsync(); // started while the first is still in progress: nobody waits for it

        assertThat(completed).as("nothing is acknowledged before an fsync covering it ends").isEmpty();
        second.succeed();
        // The second fsync began after both writes: it covers the first too, which completes first.
        await().atMost(DEADLINE).until(() -> completed.size() == 2);
        assertThat(completed).containsExactly(0L, 1L);
        first.succeed();
        assertThat(failed).isEmpty();
    }

    @Test
    void shouldFailWhatAFailedFsyncCoveredAndCompleteNothingAfterItOnTheStoppedTarget() throws Exception {
        append(txLog);
        HeldPoint first = nextFsync();
        append(txLog);
        HeldPoint second = nextFsync();

        first.fail();
        await().atMost(DEADLINE).until(() -> failed.size() == 1);
        second.succeed(); // the kernel may have dropped the first's pages: a success now proves nothing
        await().atMost(DEADLINE).until(() -> failed.size() == 2);
        assertThat(completed).isEmpty();
        assertThat(failed.get(1)).isInstanceOf(StorageFailedException.class);

        append(txLog);
        await().atMost(DEADLINE).until(() -> failed.size() == 3);
        assertThat(failed.get(2)).as("the stopped target takes no more").isInstanceOf(StorageFailedException.class);
        assertThat(completed).isEmpty();
    }

    @Test
    void shouldKeepAnEarlierCycleWaitingForItsFsyncWhenALaterCyclesWriteFails() throws Exception {
        append(txLog);
        HeldPoint first = nextFsync();
        txLog.failNextWrite = true;
        append(txLog);
        await().atMost(DEADLINE).until(() -> failed.size() == 1);
        assertThat(txLog.aborts).as("the failed write was forgotten").isEqualTo(1);
        assertThat(completed).as("the earlier cycle still waits for its fsync").isEmpty();

        first.succeed();
        await().atMost(DEADLINE).until(() -> completed.size() == 1);
        assertThat(completed).containsExactly(0L);
    }

    @Test
    void shouldWriteFollowersOnlyOnceTheirLeaderIsDurable() throws Exception {
        RecordingTarget queue = new RecordingTarget();
        CompletableFuture<Long> commit = CompletableFuture.supplyAsync(() -> {
            // made on the thread that waits for them: the writer unparks it
            AppendRequest leader = new AppendRequest(txLog, new byte[BatchDescriptor.HEADER_LENGTH], true);
            AppendRequest follower = new AppendRequest(queue, new byte[BatchDescriptor.HEADER_LENGTH], false);
            long at = writer.appendThen(leader, List.of(follower));
            GroupCommitWriter.awaitAll(List.of(follower));
            return at;
        });
        HeldPoint fsync = nextFsync();
        assertThat(queue.writes).as("nothing of the follower is in its file before the leader is durable").isZero();
        assertThat(commit).isNotDone();

        fsync.succeed();
        assertThat(commit.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isZero();
        assertThat(queue.writes).isEqualTo(1);
    }

    /**
     * The leader's fsync ends while the writer is still finishing the leader's cycle (here: while it completes a
     * request of another queue of that cycle, whose callback lets the fsync go and waits for the leader). The
     * pipeline then sends the followers back, and they must be written by that pass only: written also by the
     * cycle itself, a transaction's queue writes were applied twice. Which queue the writer completes first is up to
     * an identity hash, so the cycle carries eight others and the case runs ten times.
     */
    @Test
    void shouldWriteTheFollowersOfALeaderDurableBeforeItsCycleEndsOnce() throws Exception {
        for (int round = 0; round < 10; round++) {
            RecordingTarget queue = new RecordingTarget();
            CountDownLatch leaderDone = new CountDownLatch(1);
            CountDownLatch followerDone = new CountDownLatch(1);
            AppendRequest leader = new AppendRequest(txLog, new byte[BatchDescriptor.HEADER_LENGTH], true, null,
                    callback(leaderDone::countDown));
            leader.followers = List.of(new AppendRequest(queue, new byte[BatchDescriptor.HEADER_LENGTH], false, null,
                    callback(followerDone::countDown)));
            int pointsBefore = txLog.points.size();
            List<AppendRequest> others = new java.util.ArrayList<>();
            for (int i = 0; i < 8; i++) {
                others.add(new AppendRequest(new RecordingTarget(), new byte[BatchDescriptor.HEADER_LENGTH], false, null,
                        callback(() -> {
                            // On the writer thread. If the leader was handed to the pipeline already, its fsync
                            // ends now, before the writer is done with the cycle.
                            if (txLog.points.size() > pointsBefore) {
                                txLog.points.get(pointsBefore).succeed();
                                try {
                                    leaderDone.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            }
                        })));
            }
            // Held by a control task while the requests arrive, the writer takes them in one cycle.
            CountDownLatch inControl = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            CompletableFuture<Object> held = CompletableFuture.supplyAsync(() -> writer.execute(() -> {
                inControl.countDown();
                try {
                    return go.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
            assertThat(inControl.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            writer.appendAsync(leader);
            others.forEach(writer::appendAsync);
            go.countDown();
            held.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

            await().atMost(DEADLINE).until(() -> txLog.points.size() > pointsBefore);
            txLog.points.get(pointsBefore).succeed();
            assertThat(followerDone.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            writer.awaitBesideFsyncs(); // the pipeline handed back what it had to, and the writer wrote it
            assertThat(queue.records).as("round %d: the follower is written once", round).isEqualTo(1);
        }
        assertThat(failed).isEmpty();
    }

    private static AppendRequest.Callback callback(Runnable onCompleted) {
        return new AppendRequest.Callback() {
            @Override
            public void completed(long baseOffset) {
                onCompleted.run();
            }

            @Override
            public void failed(RuntimeException cause) {
                throw new AssertionError("not expected to fail", cause);
            }
        };
    }

    /** A point whose fsync the test lets go or fails. */
    private static final class HeldPoint implements FsyncPoint {
        private final HeldTarget target;
        private final CountDownLatch go = new CountDownLatch(1);
        private volatile boolean fail;

        HeldPoint(HeldTarget target) {
            this.target = target;
        }

        @Override
        public void force(OwnFile own) throws IOException {
            target.started.add(this);
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            if (fail) {
                target.stopped = new StorageFailedException("held target is stopped", null);
                throw new IOException("Input/output error (injected)");
            }
        }

        void succeed() {
            go.countDown();
        }

        void fail() {
            fail = true;
            go.countDown();
        }
    }

    /** The transaction log's part: fsynced beside the writer, through points the test holds. */
    private static final class HeldTarget extends RecordingTarget {
        final BlockingQueue<HeldPoint> started = new LinkedBlockingQueue<>();
        final List<HeldPoint> points = new CopyOnWriteArrayList<>();
        volatile boolean failNextWrite;

        @Override
        public long write(List<AppendRequest> requests) throws IOException {
            if (failNextWrite) {
                failNextWrite = false;
                throw new IOException("Input/output error (injected write)");
            }
            return super.write(requests);
        }

        @Override
        public boolean fsyncsBeside() {
            return true;
        }

        @Override
        public FsyncPoint fsyncPoint() {
            HeldPoint p = new HeldPoint(this);
            points.add(p);
            return p;
        }

        void releaseAll() {
            points.forEach(HeldPoint::succeed);
        }
    }

    /** A target that only numbers and counts what it is given. */
    private static class RecordingTarget implements WriteTarget {
        volatile int writes;
        volatile int records;
        volatile int aborts;
        volatile RuntimeException stopped;
        private long next;

        @Override
        public long write(List<AppendRequest> requests) throws IOException {
            long bytes = 0;
            for (AppendRequest r : requests) {
                BatchDescriptor.putBaseOffset(r.batch(), next++);
                bytes += r.batch().length;
            }
            records += requests.size();
            writes++;
            return bytes;
        }

        @Override
        public void force() {
        }

        @Override
        public boolean isDirty() {
            return false;
        }

        @Override
        public void publish() {
        }

        @Override
        public void abort() {
            aborts++;
        }

        @Override
        public String describe() {
            return "test target";
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public RuntimeException failure() {
            return stopped;
        }
    }
}
