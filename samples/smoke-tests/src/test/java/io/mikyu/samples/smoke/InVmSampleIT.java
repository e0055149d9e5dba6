package io.mikyu.samples.smoke;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** samples/in-vm: a connection factory made in code, a listener, a delivery delay. */
class InVmSampleIT {

    @Test
    void listenerGetsEveryGreetingAndTheDelayedMessageWaits(@TempDir Path data) throws Exception {
        SampleRun run = SampleRun.javaJar("in-vm/target/mikyu-sample-in-vm.jar", data.toString());
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("in-VM: the listener got 'hello, Ada'")
                .contains("in-VM: the listener got 'hello, Grace'")
                .contains("in-VM: the listener got 'hello, Edsger'");
        Matcher later = Pattern.compile("in-VM: 'later' arrived after (\\d+) ms").matcher(run.output());
        assertThat(later.find()).as(run.output()).isTrue();
        assertThat(Long.parseLong(later.group(1))).isGreaterThanOrEqualTo(500);
    }
}
