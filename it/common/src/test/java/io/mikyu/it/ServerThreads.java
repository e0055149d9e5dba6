package io.mikyu.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.concurrent.TimeUnit;

/**
 * The server's threads, written next to the test reports when a request to it hangs: the server JVM is found by
 * its home directory on its command line (-Dit.server.home, set by the build), its threads printed by jcmd.
 */
final class ServerThreads {

    private ServerThreads() {
    }

    /** Writes the dump and returns where, or says why there is none. */
    static String dump(String why) {
        String home = System.getProperty("it.server.home");
        if (home == null) {
            return "(no thread dump: -Dit.server.home is not set)";
        }
        String marker = Path.of(home).toAbsolutePath().normalize().toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(marker) && c.contains("java")).orElse(false))
                .findFirst()
                .map(p -> write(p.pid(), why))
                .orElse("(no thread dump: no process runs from " + marker + ")");
    }

    private static String write(long pid, String why) {
        try {
            Path out = Path.of(System.getProperty("it.reports", "target"),
                    "server-threads-" + LocalTime.now().toString().replace(':', '-') + ".txt");
            Files.createDirectories(out.getParent());
            Files.writeString(out, why + "\n\n");
            String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
            Process p = new ProcessBuilder(jcmd, Long.toString(pid), "Thread.print")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile())).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return "server threads (pid " + pid + ") in " + out.toAbsolutePath();
        } catch (IOException e) {
            return "(no thread dump: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(no thread dump: interrupted)";
        }
    }
}
