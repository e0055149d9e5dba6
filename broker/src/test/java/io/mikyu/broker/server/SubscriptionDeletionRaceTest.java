package io.mikyu.broker.server;

import io.mikyu.engine.Mikyu;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.classic.SubscriptionDeletionHook;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two clients of one broker (two network connections, as two processes have): one deletes a subscription it found
 * idle while the other's consumer joins it. The join is put exactly between the deleting client's decision and its
 * deletion, the worst moment; the joining consumer must keep its subscription and get what is sent to it.
 */
@Timeout(60)
class SubscriptionDeletionRaceTest {

    @TempDir
    Path dir;

    @AfterEach
    void noHook() {
        SubscriptionDeletionHook.set(null);
    }

    @Test
    void aConsumerThatJoinsWhileAnotherClientUnsubscribesKeepsTheSubscription() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            MikyuConnectionFactory here = new MikyuConnectionFactory(broker.uri() + "?clientName=here");
            MikyuConnectionFactory there = new MikyuConnectionFactory(broker.uri() + "?clientName=there");
            Mikyu admin = broker.dial();
            try (Connection a = here.createConnection(); Connection b = there.createConnection()) {
                b.start();
                Session sa = a.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Session sb = b.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Topic events = sa.createTopic("events");
                sa.createSharedDurableConsumer(events, "trail").close(); // the subscription exists, idle
                assertThat(admin.log("events").groups()).hasSize(1);

                AtomicReference<MessageConsumer> joined = new AtomicReference<>();
                SubscriptionDeletionHook.set(group -> {
                    SubscriptionDeletionHook.set(null);
                    try {
                        joined.set(sb.createSharedDurableConsumer(sb.createTopic("events"), "trail"));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
                assertThatThrownBy(() -> sa.unsubscribe("trail")).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("active consumer");
                assertThat(joined.get()).as("the other client joined").isNotNull();
                assertThat(admin.log("events").groups()).as("the joined subscription").hasSize(1);

                sa.createProducer(events).send(sa.createTextMessage("after the race"));
                Message m = joined.get().receive(20_000);
                assertThat(m).isNotNull();
                assertThat(((TextMessage) m).getText()).isEqualTo("after the race");
            }
        }
    }

    @Test
    void aConsumerThatJoinsWhileTheLastOneElsewhereLeavesKeepsTheSharedSubscription() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            MikyuConnectionFactory here = new MikyuConnectionFactory(broker.uri() + "?clientName=here");
            MikyuConnectionFactory there = new MikyuConnectionFactory(broker.uri() + "?clientName=there");
            Mikyu admin = broker.dial();
            try (Connection a = here.createConnection(); Connection b = there.createConnection()) {
                b.start();
                Session sa = a.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Session sb = b.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Topic prices = sa.createTopic("prices");
                MessageConsumer last = sa.createSharedConsumer(prices, "ticker");

                AtomicReference<MessageConsumer> joined = new AtomicReference<>();
                SubscriptionDeletionHook.set(group -> {
                    SubscriptionDeletionHook.set(null);
                    try {
                        joined.set(sb.createSharedConsumer(sb.createTopic("prices"), "ticker"));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
                last.close(); // the last consumer here: the subscription goes, unless another joined meanwhile
                assertThat(joined.get()).as("the other client joined").isNotNull();
                assertThat(admin.log("prices").groups()).as("the joined subscription").hasSize(1);

                sa.createProducer(prices).send(sa.createTextMessage("after the race"));
                Message m = joined.get().receive(20_000);
                assertThat(m).isNotNull();
                assertThat(((TextMessage) m).getText()).isEqualTo("after the race");
                joined.get().close();
                assertThat(admin.log("prices").groups()).as("its last consumer closed").isEmpty();
            }
        }
    }
}
