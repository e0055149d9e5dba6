package io.mikyu.engine.crash;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StoreLockedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One process at a time owns a data directory; the OS lock goes with the process. */
@Timeout(60)
class DirectoryLockAcrossProcessesTest {

    @TempDir
    Path tmp;

    @Test
    void aDirectoryHeldByALiveProcessCannotBeOpenedAndTheErrorNamesTheHolderPid() throws Exception {
        Path dir = tmp.resolve("data");
        try (ChildProcess child = ChildProcess.start(tmp, CrashingAppender.class, java.util.Map.of(), "hold", dir.toString())) {
            child.awaitLines(l -> l.startsWith("READY "), 1, Duration.ofSeconds(10));
            assertThatThrownBy(() -> Mikyu.open(dir))
                    .isInstanceOf(StoreLockedException.class)
                    .hasMessageContaining("pid " + child.pid())
                    .hasMessageContaining(dir.toString());
            child.sigkill();
        }
    }

    @Test
    void theDirectoryOpensOnceTheHolderIsSigkilled() throws Exception {
        Path dir = tmp.resolve("data");
        try (ChildProcess child = ChildProcess.start(tmp, CrashingAppender.class, java.util.Map.of(), "hold", dir.toString())) {
            child.awaitLines(l -> l.startsWith("READY "), 1, Duration.ofSeconds(10));
            child.sigkill();
        }
        try (Mikyu store = Mikyu.open(dir)) {
            LogQueue q = store.log(CrashingAppender.QUEUE);
            assertThat(q.read(0).payloadAsString()).isEqualTo("held");
        }
    }

    @Test
    void aFailedSecondOpenInTheHoldingProcessKeepsOtherProcessesOut() throws Exception {
        Path dir = tmp.resolve("data");
        try (Mikyu store = Mikyu.open(dir)) {
            assertThatThrownBy(() -> Mikyu.open(dir)).isInstanceOf(StoreLockedException.class);
            // The failed attempt opened and closed its own channel on mikyu.lock; on POSIX, closing any descriptor
            // of a file drops the process's fcntl locks on it, so another process must still be refused.
            try (ChildProcess child = ChildProcess.start(tmp, CrashingAppender.class, java.util.Map.of(), "tryopen", dir.toString())) {
                assertThat(child.waitForExit(Duration.ofSeconds(20))).isZero();
                assertThat(child.lines()).as("child output; stderr: " + child.stderrText()).hasSize(1);
                assertThat(child.lines().get(0)).startsWith("LOCKED StoreLockedException")
                        .contains("pid " + ProcessHandle.current().pid());
            }
            assertThat(store.list(io.mikyu.engine.QueueKind.LOG)).isEmpty();
        }
    }

    @Test
    void aProcessThatOnlyTriedToOpenAHeldDirectoryDoesNotReleaseTheHoldersLock() throws Exception {
        Path dir = tmp.resolve("data");
        try (Mikyu store = Mikyu.open(dir)) {
            for (int i = 0; i < 2; i++) {
                try (ChildProcess child = ChildProcess.start(tmp, CrashingAppender.class, java.util.Map.of(), "tryopen", dir.toString())) {
                    assertThat(child.waitForExit(Duration.ofSeconds(20))).isZero();
                    assertThat(child.lines()).as("stderr: " + child.stderrText()).singleElement()
                            .asString().startsWith("LOCKED StoreLockedException");
                }
            }
            assertThat(store.location()).isEqualTo(dir.toAbsolutePath().normalize().toString());
        }
    }
}
