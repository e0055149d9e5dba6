package io.mikyu.cli;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.Record;
import io.mikyu.transport.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code mikyu daemon} as a real process: what it acknowledged survives SIGKILL; SIGTERM is a clean stop. */
class DaemonCommandTest {

    @TempDir
    Path dir;

    @Test
    void everySyncAppendItAcknowledgedSurvivesSigkillAndRestart() throws Exception {
        Path data = dir.resolve("data");
        Map<Long, String> acknowledged = new ConcurrentHashMap<>();
        try (DaemonProcess daemon = DaemonProcess.start(dir, data, "tcp://127.0.0.1:0")) {
            String uri = daemon.awaitListening(Duration.ofSeconds(30)).get(0);
            Mikyu client = Mikyu.dial(uri);
            LogQueue events = client.createLog("events");
            List<Thread> producers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int producer = t;
                Thread thread = new Thread(() -> {
                    try {
                        for (int i = 0; ; i++) {
                            String payload = producer + "-" + i;
                            long offset = events.appendBatch(List.of(Entry.of(payload)), Durability.SYNC);
                            acknowledged.put(offset, payload);
                        }
                    } catch (MikyuException e) {
                        // the daemon died under us: the append in flight was never acknowledged
                    }
                });
                thread.start();
                producers.add(thread);
            }
            await("200 appends acknowledged").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                    .until(() -> acknowledged.size() >= 200);
            daemon.sigkill();
            for (Thread thread : producers) {
                thread.join(10_000);
            }
            client.close();
        }

        try (DaemonProcess daemon = DaemonProcess.start(dir, data, "tcp://127.0.0.1:0");
             Mikyu client = Mikyu.dial(daemon.awaitListening(Duration.ofSeconds(30)).get(0))) {
            LogQueue events = client.log("events");
            Map<Long, String> stored = new ConcurrentHashMap<>();
            for (Record r : events.read(0, Integer.MAX_VALUE)) {
                stored.put(r.offset(), r.payloadAsString());
            }
            assertThat(stored).containsAllEntriesOf(acknowledged);
            assertThat(client.recoveryReport().events()).isNotEmpty();
        }
    }

    @Test
    void sigtermStopsListeningClosesTheStoreAndExitsZero() throws Exception {
        Path data = dir.resolve("data");
        List<String> targets = new ArrayList<>(List.of("tcp://127.0.0.1:0"));
        if (Transport.best() == Transport.EPOLL) {
            targets.add("unix://" + dir.resolve("mikyu.sock"));
        }
        try (DaemonProcess daemon = DaemonProcess.start(dir, data, targets.toArray(String[]::new))) {
            List<String> listening = daemon.awaitListening(Duration.ofSeconds(30));
            assertThat(listening).hasSize(targets.size());
            assertThat(listening.get(0)).matches("tcp://127\\.0\\.0\\.1:[1-9][0-9]*");
            for (String uri : listening) {
                try (Mikyu client = Mikyu.dial(uri)) {
                    client.getOrCreateLog("events", io.mikyu.engine.LogQueueConfig.defaults())
                            .append(Entry.of("via " + uri));
                }
            }
            daemon.sigterm();
            assertThat(daemon.waitForExit(Duration.ofSeconds(30))).as(daemon.stderrText()).isZero();
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events()).as("a clean close leaves nothing to recover").isEmpty();
            assertThat(store.log("events").read(0, 10)).hasSize(targets.size());
        }
    }
}
