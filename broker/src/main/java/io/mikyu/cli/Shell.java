package io.mikyu.cli;

import io.mikyu.engine.Mikyu;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;

/**
 * The state of one {@code mikyu repl} session: the store its commands work on, opened once and kept open between
 * commands (a data directory opened in-process, or a connection to a daemon), and what Ctrl-C stops.
 *
 * <p>Commands find the shell through the root command ({@link MikyuCli#shell}); outside a shell there is none and
 * each command opens and closes its own store.
 */
final class Shell implements AutoCloseable {

    private Path dataDir;
    private String target;
    private Mikyu store;
    private volatile Runnable onInterrupt;
    private boolean exitRequested;

    /** A shell on {@code target} if not null, else on {@code dataDir}; nothing is opened until a command needs it. */
    Shell(Path dataDir, String target) {
        this.dataDir = dataDir;
        this.target = target;
    }

    /** The shell the command runs in, or {@code null} outside one. */
    static Shell of(CommandSpec spec) {
        return spec.root().userObject() instanceof MikyuCli cli ? cli.shell : null;
    }

    /**
     * The shell's store, opened at the first command that needs it. A daemon connection that was lost (the daemon
     * restarted) is dialled again once.
     */
    Mikyu store() {
        if (store != null && !store.isOpen() && target != null) {
            closeStore();
        }
        if (store == null) {
            store = target != null ? TargetOption.dial(target, false) : DataDirOption.open(dataDir);
        }
        return store;
    }

    /** Works on the data directory {@code dir} from now on, opened at once so that a mistake shows here. */
    void open(Path dir) {
        Mikyu opened = DataDirOption.open(dir);
        closeStore();
        store = opened;
        dataDir = dir;
        target = null;
    }

    /** Works on the daemon at {@code uri} from now on, dialled at once. */
    void connect(String uri) {
        Mikyu dialled = TargetOption.dial(uri, false);
        closeStore();
        store = dialled;
        target = uri;
    }

    /** Closes the store (the next command opens it again): lets another process open the data directory. */
    void closeStore() {
        Mikyu s = store;
        store = null;
        if (s != null) {
            s.close();
        }
    }

    boolean remote() {
        return target != null;
    }

    boolean isOpen() {
        return store != null && store.isOpen();
    }

    /** Where the commands work: the daemon's URI or the data directory. */
    String location() {
        return target != null ? target : dataDir.toString();
    }

    /**
     * While the returned handle is open, Ctrl-C in the shell runs {@code stop} (a following command stops at its
     * next step) instead of ending the shell.
     */
    AutoCloseable onInterrupt(Runnable stop) {
        onInterrupt = stop;
        return () -> onInterrupt = null;
    }

    /** {@code exit}: the shell ends after this command. */
    void requestExit() {
        exitRequested = true;
    }

    boolean exitRequested() {
        return exitRequested;
    }

    /** Ctrl-C while a command runs. */
    void interrupt() {
        Runnable stop = onInterrupt;
        if (stop != null) {
            stop.run();
        }
    }

    @Override
    public void close() {
        closeStore();
    }
}
