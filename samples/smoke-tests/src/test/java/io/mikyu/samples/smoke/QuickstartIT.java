package io.mikyu.samples.smoke;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** samples/quickstart: the README's main command, twice on one directory, the second run resuming the first. */
class QuickstartIT {

    @Test
    void runsTwiceOnOneDirectoryAndTheGroupResumes(@TempDir Path data) throws Exception {
        SampleRun first = SampleRun.javaJar("quickstart/target/mikyu-quickstart.jar", data.toString());
        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(first.output())
                .contains("appended 'hello, mikyu' at offset 0")
                .contains("group 'quickstart' is at offset 0")
                .contains("dead letter in jobs/dlq")
                .contains("closed; run again");

        SampleRun second = SampleRun.javaJar("quickstart/target/mikyu-quickstart.jar", data.toString());
        assertThat(second.exitCode()).as(second.output()).isZero();
        assertThat(second.output())
                .doesNotContain("appended 'hello, mikyu' at offset 0")
                .doesNotContain("group 'quickstart' is at offset 0,");
    }
}
