package io.mikyu.samples.smoke;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One sample run as its README says, in a child process: what it printed and how it ended. */
record SampleRun(int exitCode, String output) {

    /** The samples' directory (samples/), where each README's command is run from the repository root. */
    static final Path SAMPLES = Path.of(System.getProperty("mikyu.samples", "..")).toAbsolutePath().normalize();
    static final Path ROOT = SAMPLES.getParent();

    /** Runs {@code command} from the repository root; fails the test if it has not ended within two minutes. */
    static SampleRun of(String... command) throws IOException, InterruptedException {
        Path log = Files.createTempFile("sample", ".out");
        try {
            Process p = new ProcessBuilder(command).directory(ROOT.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " still running after 2 minutes:\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new SampleRun(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** {@code java -jar samples/<jar> args...} with the Java running the tests. */
    static SampleRun javaJar(String jar, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                SAMPLES.resolve(jar).toString()));
        command.addAll(List.of(args));
        return of(command.toArray(String[]::new));
    }
}
