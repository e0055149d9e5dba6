package io.mikyu.bench.jms;

import java.nio.file.Path;

/** The command line of {@link JmsBench}. */
final class Options {

    static final String USAGE = String.join("\n",
            "usage: JmsBench --case NAME --jndi FILE [options]",
            "  --case NAME        one of: " + Case.labels(),
            "  --jndi FILE        the provider: a JNDI properties file (bench/jms/jndi/*.properties)",
            "  --dir DIR          the run's directory, ${dir} in the JNDI file (default: a temporary one, deleted after)",
            "  --port N           ${port} in the JNDI file: the loopback port of a broker started for the run",
            "  --duration S       measured seconds (15)",
            "  --warmup S         warm-up seconds before the window (5)",
            "  --size BYTES       message body (1024)",
            "  --messages N       backlog cases: messages produced before the consumers start (1000000)");

    Case workload;
    Path jndiFile;
    Path dir;
    int port;
    int durationSeconds = 15;
    int warmupSeconds = 5;
    int size = 1024;
    long messages = 1_000_000;

    static Options parse(String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + name);
            }
            String value = args[++i];
            switch (name) {
                case "--case" -> o.workload = Case.byLabel(value);
                case "--jndi" -> o.jndiFile = Path.of(value);
                case "--dir" -> o.dir = Path.of(value);
                case "--port" -> o.port = positive(name, value);
                case "--duration" -> o.durationSeconds = positive(name, value);
                case "--warmup" -> o.warmupSeconds = Integer.parseInt(value);
                case "--size" -> o.size = Integer.parseInt(value);
                case "--messages" -> o.messages = positive(name, value);
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        if (o.workload == null || o.jndiFile == null) {
            throw new IllegalArgumentException("--case and --jndi are required");
        }
        if (o.warmupSeconds < 0 || o.size < 0) {
            throw new IllegalArgumentException("--warmup and --size must not be negative");
        }
        return o;
    }

    private static int positive(String name, String value) {
        int v = Integer.parseInt(value.replace("_", ""));
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be positive, not " + value);
        }
        return v;
    }
}
