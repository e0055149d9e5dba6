package io.mikyu.jms.classic;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A JVM sending PERSISTENT messages with sync durability is killed with SIGKILL: every send that returned is
 * there after reopening — on the queue and on a durable subscription made before the sends.
 */
@Timeout(120)
class PersistentSendCrashTest {

    @TempDir
    Path data;

    @Test
    void everySendThatReturnedSurvivesSigkill() throws Exception {
        String url = "vm://" + data.resolve("store") + "?durability=sync&clientID=crash";
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createDurableSubscriber(s.createTopic("crash-topic"), "sub").close();
        }
        long lastSent;
        try (ChildProcess child = ChildProcess.start(data, PersistentSender.class, Map.of(),
                "vm://" + data.resolve("store") + "?durability=sync")) {
            child.awaitLines(l -> l.startsWith("sent "), 300, Duration.ofSeconds(60));
            child.sigkill();
            List<String> sent = child.lines("sent ");
            lastSent = Long.parseLong(sent.get(sent.size() - 1).substring(5));
        }
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            assertEveryUpTo(s.createConsumer(s.createQueue("crash-queue")), lastSent);
            assertEveryUpTo(s.createDurableSubscriber(s.createTopic("crash-topic"), "sub"), lastSent);
        }
    }

    private static void assertEveryUpTo(MessageConsumer consumer, long lastSent) throws Exception {
        Set<Integer> seen = new HashSet<>();
        Message m;
        while ((m = consumer.receive(1_000)) != null) {
            int seq = m.getIntProperty("seq");
            if (!seen.add(seq)) {
                assertThat(m.getJMSRedelivered()).as("a duplicate of %d is flagged redelivered", seq).isTrue();
            }
        }
        for (int i = 0; i <= lastSent; i++) {
            assertThat(seen).as("message %d, whose send returned", i).contains(i);
        }
    }
}
