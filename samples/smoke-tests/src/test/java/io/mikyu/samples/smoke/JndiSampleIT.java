package io.mikyu.samples.smoke;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** samples/jndi: standard JMS code configured by jndi.properties. */
class JndiSampleIT {

    @Test
    void sendsReceivesCatchesUpAndDeadLetters(@TempDir Path data) throws Exception {
        SampleRun run = SampleRun.javaJar("jndi/target/mikyu-sample-jndi.jar", data.toString());
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("JMS: received 'order #1: 2 coffees' for ada")
                .contains("JMS: the durable subscriber caught up on 'EURUSD 1.0842'")
                .contains("JMS: the durable subscriber caught up on 'EURUSD 1.0845'")
                .contains("JMS: attempt 3 of 'order #2: malformed' failed")
                .contains("JMS: 'order #2: malformed' is in orders/dlq");
    }
}
