package io.mikyu.engine.faults;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fault campaign, scenario 5 on a real disk: a store in an 8 MiB tmpfs, mounted in a mount namespace of its own
 * ({@code unshare --mount}, so nothing is left mounted whatever happens) around a child JVM. Needs root (or a user
 * namespace that allows mounting); skipped otherwise. The engine's free-space floor is 0, so the writes meet the
 * kernel's ENOSPC: the writes refused say so, every acknowledged write survives a reopen, and appends succeed again
 * once space is freed.
 */
@Tag("faults")
class RealDiskFullTest {

    @TempDir
    Path tmp;

    @Test
    void aRealFullFilesystemRefusesCleanlyAndTheStoreCarriesOnOnceSpaceReturns() throws Exception {
        Assumptions.assumeTrue(canMountTmpfs(), "cannot mount a tmpfs in a mount namespace here (needs root)");
        Path mount = Files.createDirectories(tmp.resolve("fs"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String script = "mount -t tmpfs -o size=8m tmpfs \"$1\" && exec \"$2\" -Xmx128m -cp \"$3\" "
                + RealDiskFullChild.class.getName() + " \"$1\"";
        Process p = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh",
                mount.toString(), java, classPath).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        System.out.println("RealDiskFullTest child:\n" + output);
        assertThat(p.exitValue()).as(output).isZero();
        List<String> lines = output.lines().toList();
        assertThat(lines).as("the first refusal is a clear disk-full error").anyMatch(l -> l.startsWith("full ")
                && (l.contains("StorageFullException") || l.contains("No space left")));
        assertThat(lines).as("the store carried on once space returned")
                .anyMatch(l -> l.startsWith("after space returned"));
        assertThat(lines).as("every acknowledged write survived").noneMatch(l -> l.startsWith("MISSING"))
                .anyMatch(l -> l.startsWith("verified"));
    }

    private boolean canMountTmpfs() throws InterruptedException {
        try {
            Path probe = Files.createDirectories(tmp.resolve("probe"));
            Process p = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "sh", "-c",
                    "mount -t tmpfs -o size=1m tmpfs \"$1\"", "sh", probe.toString())
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
