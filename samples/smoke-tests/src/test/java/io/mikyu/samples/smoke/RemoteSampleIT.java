package io.mikyu.samples.smoke;

import org.junit.jupiter.api.Test;

import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;

/** samples/remote: run.sh starts a daemon, a consumer process and a producer process over tcp://. */
class RemoteSampleIT {

    @Test
    void producerAndConsumerProcessesMeetOnTheDaemon() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        SampleRun run = SampleRun.of("bash", SampleRun.SAMPLES.resolve("remote/run.sh").toString(),
                String.valueOf(port), "25");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("producer: sent 25 jobs")
                .contains("consumer: did 25 jobs");
    }
}
