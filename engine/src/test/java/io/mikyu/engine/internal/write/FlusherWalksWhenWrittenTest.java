package io.mikyu.engine.internal.write;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flusher walks its targets only when a dirty mark was set since its last walk, or when that walk left one
 * dirty: an idle store's flusher costs nothing per queue, and nothing written is left unsynced.
 */
@Timeout(60)
class FlusherWalksWhenWrittenTest {

    private final AtomicLong marks = new AtomicLong();
    private final AtomicInteger rounds = new AtomicInteger();
    private final Target target = new Target();

    private BackgroundFlusher start() {
        return new BackgroundFlusher(() -> List.of(target), TimeUnit.MILLISECONDS.toNanos(5),
                new WriterMetrics(new SimpleMeterRegistry()), rounds::incrementAndGet, marks::get);
    }

    private void awaitRounds(int more) {
        int until = rounds.get() + more;
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> rounds.get() >= until);
    }

    @Test
    void shouldWalkOnceAndThenNotUntilSomethingIsMarkedDirty() {
        try (BackgroundFlusher flusher = start()) {
            awaitRounds(3);
            int looks = target.looks.get();
            assertThat(looks).as("the first round walks: marks set before the flusher started").isEqualTo(1);
            awaitRounds(5);
            assertThat(target.looks.get()).as("nothing marked since").isEqualTo(looks);

            target.dirty = true;
            marks.incrementAndGet();
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> target.forces.get() == 1);
            assertThat(target.dirty).isFalse();
        }
    }

    @Test
    void shouldWalkAgainAfterARoundThatLeftATargetDirty() {
        target.failNextForce = true;
        target.dirty = true;
        try (BackgroundFlusher flusher = start()) {
            // the failed force leaves the target dirty: the next round looks again, without a new mark
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> target.forces.get() == 2);
            assertThat(target.dirty).isFalse();
        }
    }

    private static final class Target implements WriteTarget {
        final AtomicInteger looks = new AtomicInteger();
        final AtomicInteger forces = new AtomicInteger();
        volatile boolean dirty;
        volatile boolean failNextForce;

        @Override
        public long write(List<AppendRequest> requests) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void force() throws IOException {
            forces.incrementAndGet();
            if (failNextForce) {
                failNextForce = false;
                throw new IOException("test: fsync failed once");
            }
            dirty = false;
        }

        @Override
        public boolean isDirty() {
            looks.incrementAndGet();
            return dirty;
        }

        @Override
        public void publish() {
        }

        @Override
        public void abort() {
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
            return null;
        }
    }
}
