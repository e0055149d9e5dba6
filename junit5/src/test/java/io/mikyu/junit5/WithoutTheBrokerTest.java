package io.mikyu.junit5;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The broker is an optional dependency: in a JVM without it a store opens as usual, and asking for the broker option
 * says which artifact to add (a child JVM with this test's class path less the broker module).
 */
class WithoutTheBrokerTest {

    @Test
    void storesWorkAndTheBrokerOptionNamesTheArtifact() throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> kept = Arrays.stream(classPath.split(File.pathSeparator))
                .filter(entry -> !isBrokerModule(entry)).collect(Collectors.toList());
        assertThat(kept).hasSizeLessThan(classPath.split(File.pathSeparator).length);   // something was left out
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-cp", String.join(File.pathSeparator, kept), WithoutBrokerMain.class.getName())
                .redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("without broker option: depth 1")
                .contains("with broker option: ExtensionConfigurationException: the broker option needs mikyu's"
                        + " broker on the test class path: add the test dependency io.mikyu:mikyu-broker");
    }

    /** The broker module's classes: its jar, or its build directory in a reactor build (not the client's). */
    private static boolean isBrokerModule(String entry) {
        String path = entry.replace('\\', '/');
        return path.contains("/mikyu-broker-") || path.endsWith("/broker/target/classes")
                || path.endsWith("/broker/target/classes/");
    }
}
