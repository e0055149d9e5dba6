package io.mikyu.engine.internal.files;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Creates that publish their folders at once share one fsync of the parent, and none returns before an fsync that
 * began after it asked.
 */
@Timeout(60)
class GroupedFsyncTest {

    /** An fsync that holds until released, counting how many began. */
    private static final class HeldFsync implements Runnable {
        final AtomicInteger begun = new AtomicInteger();
        final List<CountDownLatch> releases = new ArrayList<>();
        volatile RuntimeException failNext;

        HeldFsync(int rounds) {
            for (int i = 0; i < rounds; i++) {
                releases.add(new CountDownLatch(1));
            }
        }

        @Override
        public void run() {
            int round = begun.getAndIncrement();
            try {
                releases.get(round).await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            RuntimeException f = failNext;
            if (f != null) {
                failNext = null;
                throw f;
            }
        }
    }

    @Test
    void callersArrivingWhileAnFsyncRunsShareTheNextOne() throws Exception {
        HeldFsync disk = new HeldFsync(2);
        GroupedFsync group = new GroupedFsync(disk);
        CompletableFuture<Void> first = CompletableFuture.runAsync(group::fsync);
        await().atMost(Duration.ofSeconds(30)).until(() -> disk.begun.get() == 1);
        List<CompletableFuture<Void>> later = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            later.add(CompletableFuture.runAsync(group::fsync));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> group.calls() == 8);

        disk.releases.get(0).countDown();
        first.get();
        assertThat(later).as("the fsync under way began before they asked: it does not cover them")
                .noneMatch(CompletableFuture::isDone);

        await().atMost(Duration.ofSeconds(30)).until(() -> disk.begun.get() == 2);
        disk.releases.get(1).countDown();
        CompletableFuture.allOf(later.toArray(CompletableFuture[]::new)).get();
        assertThat(disk.begun).as("one fsync for the first, one shared by the seven that came during it")
                .hasValue(2);
        assertThat(group.rounds()).isEqualTo(2);
    }

    @Test
    void aFailedFsyncFailsEveryCallerItCovered() throws Exception {
        HeldFsync disk = new HeldFsync(3);
        GroupedFsync group = new GroupedFsync(disk);
        CompletableFuture<Void> first = CompletableFuture.runAsync(group::fsync);
        await().atMost(Duration.ofSeconds(30)).until(() -> disk.begun.get() == 1);
        List<CompletableFuture<Void>> shared = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            shared.add(CompletableFuture.runAsync(group::fsync));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> group.calls() == 4);
        disk.releases.get(0).countDown();
        first.get();

        await().atMost(Duration.ofSeconds(30)).until(() -> disk.begun.get() == 2);
        disk.failNext = new UncheckedIOException("fsync of directory failed", new IOException("Input/output error"));
        disk.releases.get(1).countDown();
        for (CompletableFuture<Void> f : shared) {
            assertThatThrownBy(f::get).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(UncheckedIOException.class)
                    .hasStackTraceContaining("Input/output error");
        }

        disk.releases.get(2).countDown();
        group.fsync(); // the next caller gets an fsync of its own, which succeeds
        assertThat(disk.begun).hasValue(3);
    }
}
