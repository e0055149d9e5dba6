package io.mikyu.broker.server;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.jms.large.LargeTopicAndTransactionTest;

import java.time.Duration;

/**
 * The JMS provider's {@link LargeTopicAndTransactionTest} over {@code tcp://}: large messages on topics and in
 * transacted and XA sessions through a broker whose frames are smaller than the bodies (they cross in chunks), with
 * the store's bodies read on the broker's side.
 */
class RemoteLargeTopicAndTransactionTest extends LargeTopicAndTransactionTest {

    private static final EngineConfig ENGINE = EngineConfig.builder().maxRecordBytes(256 << 10)
            .housekeepingInterval(Duration.ofMillis(50)).build();

    private RunningBroker broker;

    @Override
    protected String url() {
        if (broker == null) {
            broker = new RunningBroker(dataDir(), ENGINE, o -> o);
        }
        return broker.uri();
    }

    @Override
    protected Mikyu store() {
        url();
        return broker.dial();
    }

    @Override
    protected void stopServer() {
        if (broker != null) {
            broker.close();
        }
    }
}
