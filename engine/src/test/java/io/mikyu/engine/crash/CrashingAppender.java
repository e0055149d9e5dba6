package io.mikyu.engine.crash;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.Record;
import io.mikyu.engine.support.Payloads;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The child process of the crash tests. Modes:
 * <ul>
 *   <li>{@code append <dir> durability=sync threads=4 segmentBytes=N groups=false}: appends self-checking records
 *       from several threads forever, printing {@code ACK <producer> <seq> <offset> $} after each append returns;
 *       with {@code groups=true} a consumer also commits offsets and prints {@code COMMIT <group> <offset> $}
 *       after each commit returns.</li>
 *   <li>{@code hold <dir>}: opens the store, prints {@code READY <pid> $}, and sleeps.</li>
 *   <li>{@code tryopen <dir>}: tries to open the store and prints {@code OPENED $} or
 *       {@code LOCKED <message> $}, then exits.</li>
 * </ul>
 * Every line ends with {@code $} so the parent can ignore a line cut by the kill.
 */
public final class CrashingAppender {

    static final String QUEUE = "crash";


    private CrashingAppender() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path dir = Path.of(args[1]);
        Map<String, String> opts = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            opts.put(kv[0], kv[1]);
        }
        switch (mode) {
            case "append" -> append(dir, opts);
            case "hold" -> hold(dir);
            case "tryopen" -> tryOpen(dir);
            default -> throw new IllegalArgumentException(mode);
        }
    }

    private static void println(String line) {
        ChildProcess.println(line);
    }

    private static void hold(Path dir) throws InterruptedException {
        Mikyu store = Mikyu.open(dir);
        store.getOrCreateLog(QUEUE, LogQueueConfig.defaults()).append(Entry.of("held"));
        println("READY " + ProcessHandle.current().pid());
        ChildProcess.awaitKill();
    }

    private static void tryOpen(Path dir) {
        try (Mikyu store = Mikyu.open(dir)) {
            println("OPENED " + store.location());
        } catch (MikyuException e) {
            println("LOCKED " + e.getClass().getSimpleName() + ": " + e.getMessage().replace('\n', ' '));
        }
    }

    private static void append(Path dir, Map<String, String> opts) throws InterruptedException {
        Durability durability = Durability.parse(opts.getOrDefault("durability", "sync"));
        int threads = Integer.parseInt(opts.getOrDefault("threads", "4"));
        long segmentBytes = Long.parseLong(opts.getOrDefault("segmentBytes",
                String.valueOf(LogQueueConfig.DEFAULT_SEGMENT_BYTES)));
        boolean groups = Boolean.parseBoolean(opts.getOrDefault("groups", "false"));
        Mikyu store = Mikyu.open(dir);
        LogQueue queue = store.getOrCreateLog(QUEUE,
                LogQueueConfig.defaults().withDurability(durability).withSegmentBytes(segmentBytes));
        println("READY " + ProcessHandle.current().pid());
        for (int p = 0; p < threads; p++) {
            int producer = p;
            Thread t = new Thread(() -> {
                byte[] key = ("p" + producer).getBytes(StandardCharsets.UTF_8);
                Headers headers = Headers.of("producer", String.valueOf(producer));
                for (long seq = 0; ; seq++) {
                    long offset = queue.append(new Entry(key, headers, Payloads.encode(producer, seq),
                            Entry.NO_TIMESTAMP), durability);
                    println("ACK " + producer + " " + seq + " " + offset);
                }
            }, "producer-" + p);
            t.start();
        }
        if (groups) {
            Thread consumer = new Thread(() -> {
                ConsumerGroup g = queue.group("g");
                ConsumerGroup h = queue.group("h");
                long rounds = 0;
                while (true) {
                    List<Record> records = queue.read(g.position(), 37);
                    if (!records.isEmpty()) {
                        long next = records.get(records.size() - 1).offset() + 1;
                        g.commit(next);
                        println("COMMIT g " + next);
                        if (++rounds % 3 == 0) {
                            h.commit(next);
                            println("COMMIT h " + next);
                        }
                    }
                }
            }, "consumer");
            consumer.start();
        }
        Thread.currentThread().join();
    }
}
