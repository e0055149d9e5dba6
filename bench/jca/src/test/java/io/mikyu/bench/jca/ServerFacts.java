package io.mikyu.bench.jca;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What the report says about the conditions: the machine's load and the journal Artemis chose. */
final class ServerFacts {

    private ServerFacts() {
    }

    /** The 1-minute load average. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            return "?";
        }
    }

    /**
     * Artemis says at start which journal it uses (AMQ221012 "Using AIO Journal" where libaio works, else NIO);
     * the server's log has it.
     */
    static String artemisJournal() {
        Path log = Path.of(System.getProperty("bench.server.home", "."), "standalone", "log", "server.log");
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(l -> l.contains("Journal") && l.contains("AMQ22101"))
                    .map(l -> "Artemis: " + l.substring(l.indexOf("AMQ")))
                    .findFirst().orElse("Artemis journal not named in " + log);
        } catch (IOException e) {
            return "Artemis journal unknown (" + e + ")";
        }
    }
}
