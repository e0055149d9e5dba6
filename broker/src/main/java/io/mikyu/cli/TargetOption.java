package io.mikyu.cli;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Secrets;
import picocli.CommandLine.Option;

/**
 * {@code --target URI}: a {@code mikyu daemon} to work on instead of a data directory. {@code Mikyu.dial} returns
 * the same interface as {@code Mikyu.open}, so a command does not know which it has.
 */
public final class TargetOption {

    static final String ENV = "MIKYU_TARGET";

    @Option(names = "--target", paramLabel = "URI",
            description = "Work on the store of a running 'mikyu daemon' instead of a data directory:"
                    + " tcp://HOST:PORT or unix:///PATH (env MIKYU_TARGET). Not with --data-dir.")
    String target;

    /** The URI given with {@code --target}, else {@code $MIKYU_TARGET} unless a data directory was named. */
    String uri(boolean dataDirGiven) {
        if (target != null) {
            return target;
        }
        String env = System.getenv(ENV);
        return dataDirGiven || env == null || env.isBlank() ? null : env;
    }

    /** Connects to the daemon at {@code uri}; a bad URI or an unreachable daemon is one line for the user. */
    static Mikyu dial(String uri) {
        return dial(uri, true);
    }

    /**
     * As {@link #dial(String)}; {@code streams} false for commands that take a few tasks and go (a consumer stream
     * would lease a window ahead only to give it back), unless the URI says otherwise.
     */
    static Mikyu dial(String uri, boolean streams) {
        if (!uri.startsWith("tcp://") && !uri.startsWith("unix://")) {
            throw new CommandException("invalid --target '" + Secrets.redact(uri) + "': expected tcp://HOST:PORT or unix:///PATH");
        }
        try {
            return Mikyu.dial(uri, streams || uri.contains("streams=") ? java.util.Map.of()
                    : java.util.Map.of("streams", "false"));
        } catch (IllegalArgumentException e) {
            throw new CommandException("invalid --target '" + Secrets.redact(uri) + "': " + e.getMessage(), e);
        }
    }
}
