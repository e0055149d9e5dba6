package io.mikyu.broker.faults;

import io.mikyu.cli.MikyuCli;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Large JMS messages through {@code mikyu daemon} over {@code tcp://}, daemon and clients each a JVM with a 256 MiB
 * heap: a 1 GiB message streams through byte for byte ({@code -Dmikyu.large.bytes=N} changes the size), and a
 * sender killed with SIGKILL in the middle of a large send, to a queue or to a topic with a durable subscriber, leaves
 * no message and no body file behind.
 */
@Tag("faults")
@Timeout(3600)
class LargeMessageOverTcpTest {

    private static final long BYTES = Long.getLong("mikyu.large.bytes", 1L << 30);
    private static final int STREAM_PORT = 21340;
    private static final int KILL_PORT = 21341;
    private static final int TOPIC_KILL_PORT = 21342;
    private static final List<String> HEAP = List.of("-Xmx256m");

    @TempDir
    Path work;

    private ChildProcess daemon(int port) throws Exception {
        ChildProcess d = ChildProcess.startJava(work, "daemon", HEAP, MikyuCli.class.getName(), List.of("daemon",
                "--data-dir", work.resolve("data").toString(), "--target", "tcp://127.0.0.1:" + port), null);
        d.awaitLine("mikyu daemon listening on ", Duration.ofMinutes(2));
        return d;
    }

    private ChildProcess client(String name, String... args) throws IOException {
        return ChildProcess.startJava(work, name, HEAP, LargeTcpChild.class.getName(), List.of(args), null);
    }

    @Test
    void aOneGibMessageStreamsThroughTheDaemonWithSmallHeapsEverywhere() throws Exception {
        String url = "tcp://127.0.0.1:" + STREAM_PORT;
        try (ChildProcess daemon = daemon(STREAM_PORT)) {
            long started = System.nanoTime();
            try (ChildProcess sender = client("sender", "send", url, "huge", Long.toString(BYTES))) {
                sender.awaitLine("sent", Duration.ofMinutes(30));
                assertThat(sender.awaitExit(Duration.ofMinutes(1))).as(sender.describe()).isTrue();
                assertThat(sender.exitValue()).as(sender.describe()).isZero();
            }
            long sent = System.nanoTime();
            String received;
            try (ChildProcess receiver = client("receiver", "receive", url, "huge")) {
                received = receiver.awaitLine("received ", Duration.ofMinutes(30));
                assertThat(receiver.awaitExit(Duration.ofMinutes(1))).as(receiver.describe()).isTrue();
                assertThat(receiver.exitValue()).as(receiver.describe()).isZero();
            }
            long done = System.nanoTime();
            assertThat(received).isEqualTo(LargeTcpChild.receivedLine(BYTES));
            assertThat(daemon.isAlive()).as(daemon.describe()).isTrue();
            System.out.printf("LargeMessageOverTcpTest: %d bytes over tcp, sent in %d ms, received in %d ms%n",
                    BYTES, (sent - started) / 1_000_000, (done - sent) / 1_000_000);
        }
    }

    @Test
    void aSenderKilledDuringALargeSendLeavesNoMessageAndNoBodyFile() throws Exception {
        String url = "tcp://127.0.0.1:" + KILL_PORT;
        try (ChildProcess daemon = daemon(KILL_PORT); Mikyu observer = Mikyu.dial(url)) {
            killSendersMidSend(daemon, url, "killed", where -> {
                if (observer.list(QueueKind.TASK).contains("killed")) {
                    assertThat(observer.taskQueue("killed").counts().ready()).as("messages, %s", where).isZero();
                }
            });
        }
    }

    @Test
    void aSenderKilledDuringALargeSendToATopicLeavesItsSubscriberNothingAndNoBodyFile() throws Exception {
        String url = "tcp://127.0.0.1:" + TOPIC_KILL_PORT;
        try (ChildProcess daemon = daemon(TOPIC_KILL_PORT);
             Connection c = new MikyuConnectionFactory(url).createConnection()) {
            c.setClientID("survivor");
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer subscriber = s.createDurableSubscriber(s.createTopic("killed-news"), "sub");
            killSendersMidSend(daemon, url, "topic:killed-news", where ->
                    assertThat(subscriber.receive(500)).as("messages, %s", where).isNull());
        }
    }

    /** Kills senders of endless bodies to {@code destination} mid-send; after each, nothing may remain. */
    private void killSendersMidSend(ChildProcess daemon, String url, String destination, Check nothingDelivered)
            throws Exception {
        int cycles = Faults.cycles(2);
        Path bodies = work.resolve("data").resolve("bodies");
        for (int cycle = 1; cycle <= cycles; cycle++) {
            String where = "cycle " + cycle + " of " + cycles;
            try (ChildProcess sender = client("sender-" + cycle, "send", url, destination, Long.toString(1L << 40))) {
                sender.awaitLine("streaming", Duration.ofMinutes(5));
                await().atMost(Duration.ofMinutes(1)).until(() -> bodyFiles(bodies.resolve("pending")) == 1);
                sender.kill();
            }
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                assertThat(bodyFiles(bodies.resolve("pending"))).as("pending bodies, %s", where).isZero();
                assertThat(bodyFiles(bodies)).as("published bodies, %s", where).isZero();
            });
            nothingDelivered.check(where);
            assertThat(daemon.isAlive()).as(daemon.describe()).isTrue();
        }
    }

    @FunctionalInterface
    private interface Check {
        void check(String where) throws Exception;
    }

    private static long bodyFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".body")).count();
        }
    }
}
