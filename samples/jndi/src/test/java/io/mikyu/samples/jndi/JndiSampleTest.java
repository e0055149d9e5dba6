package io.mikyu.samples.jndi;

import io.mikyu.engine.Mikyu;
import io.mikyu.junit5.MikyuQueues;
import io.mikyu.junit5.MikyuTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample runs on a fresh store and leaves it as it found it: queues drained, its subscription gone. */
@MikyuTest
class JndiSampleTest {

    @Test
    void runsAndCleansUpAfterItself(Mikyu mikyu, MikyuQueues queues) throws Exception {
        JndiSample.main(new String[] {mikyu.location()});

        assertThat(queues.depth("orders")).isZero();
        assertThat(queues.deadLetterDepth("orders")).isZero();   // the failed order was taken from orders/dlq
        assertThat(mikyu.log("prices").groups()).isEmpty();      // the durable subscription was unsubscribed
    }
}
