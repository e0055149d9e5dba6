package io.mikyu.broker.server;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A JMS connection that ends without closing (its process died, its network went) leaves nothing of its own on
 * the broker once the broker has noticed and the reconnect grace (three heartbeats) has passed: no temporary queue
 * or topic, no shared non-durable subscription it was the last consumer of. One another connection still uses stays.
 */
@Timeout(90)
class AbandonedJmsStateTest {

    private static final Duration HEARTBEAT = Duration.ofMillis(300);

    @TempDir
    Path dir;

    @Test
    void aConnectionThatDiesLeavesNoTemporaryDestinationsNorSharedSubscriptionsBehind() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE, o -> o.withHeartbeat(HEARTBEAT));
             LoopbackProxy network = new LoopbackProxy(broker.endpoint().port())) {
            Mikyu admin = broker.dial();
            MikyuConnectionFactory doomed = new MikyuConnectionFactory(network.uri()
                    + "?clientName=doomed&reconnect=0s");
            MikyuConnectionFactory survivor = new MikyuConnectionFactory(broker.uri() + "?clientName=survivor");
            try (Connection dying = doomed.createConnection(); Connection staying = survivor.createConnection()) {
                Session s = dying.createSession(false, Session.AUTO_ACKNOWLEDGE);
                s.createTemporaryQueue();
                s.createTemporaryTopic();
                Topic prices = s.createTopic("prices");
                MessageConsumer ticker = s.createSharedConsumer(prices, "ticker");
                MessageConsumer board = s.createSharedConsumer(prices, "board");
                Session other = staying.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer boardElsewhere = other.createSharedConsumer(other.createTopic("prices"), "board");
                assertThat(temporaries(admin)).as("a queue with its dead-letter queue, a topic").hasSize(3);
                assertThat(admin.log("prices").groups()).hasSize(2);

                network.cut(); // as if the process died: the broker sees its connection end, nothing is closed

                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(temporaries(admin))
                        .as("temporary destinations left").isEmpty());
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(admin.log("prices").groups())
                        .as("the subscription only the dead connection used").noneMatch(g -> g.contains("ticker")));
                assertThat(admin.log("prices").groups()).as("the subscription another connection uses")
                        .hasSize(1).allMatch(g -> g.contains("board"));
                assertThat(ticker).isNotNull();
                assertThat(board).isNotNull();
                boardElsewhere.close();
                assertThat(admin.log("prices").groups()).as("its last consumer closed").isEmpty();
            }
        }
    }

    private static List<String> temporaries(Mikyu admin) {
        List<String> all = new java.util.ArrayList<>(admin.list(QueueKind.TASK));
        all.addAll(admin.list(QueueKind.LOG));
        return all.stream().filter(n -> n.startsWith("tmp.")).toList();
    }
}
