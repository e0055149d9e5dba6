package io.mikyu.samples.smoke;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class SpringBootSampleIT {

    @Test
    void theListenerGetsEveryOrderAndTheApplicationStops(@TempDir Path data) throws Exception {
        SampleRun run = SampleRun.javaJar("spring-boot/target/mikyu-sample-spring-boot.jar",
                "--spring.mikyu.embedded.directory=" + data.resolve("mikyu-data"));
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("received order: 2 coffees").contains("received order: 1 tea")
                .contains("received order: 3 croissants");
        assertThat(data.resolve("mikyu-data")).isDirectory();
    }
}
