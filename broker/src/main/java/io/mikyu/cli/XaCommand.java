package io.mikyu.cli;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.TransactionNotFoundException;
import io.mikyu.engine.XidFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

@Command(name = "xa", mixinStandardHelpOptions = true,
        description = {"Lists and decides in-doubt XA transactions: prepared by a transaction manager that has not"
                + " committed or rolled them back (it crashed, or lost its log).",
            "Deciding one by hand is a heuristic decision: use it when the transaction manager cannot. On a daemon"
                + " with users you see and decide the transactions you prepared, and those whose every queue you"
                + " may manage."},
        subcommands = {XaCommand.ListBranches.class, XaCommand.Commit.class, XaCommand.Rollback.class},
        footer = {"", "Examples:",
            "  mikyu xa list",
            "  mikyu xa commit 131077:0a1b2c:01",
            "  mikyu xa rollback 131077:0a1b2c:01 --target 'unix:///run/mikyu/mikyu.sock?user=ops&password=...'",
            "", "On a daemon with users, the credentials come from the target URI (user, password) or the"
                + " configuration file (--config)."})
final class XaCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: list, commit or rollback");
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"Prints the in-doubt transactions, oldest first, one line each: the XID"
                    + " (formatId:gtridHex:bqualHex, or 0x<hex> for an id not in the XA layout), who prepared it,"
                    + " how long ago, when, and the queues it writes to or settles on."},
            footer = {"", "Example: mikyu xa list --data-dir /var/lib/mikyu"})
    static final class ListBranches extends StoreCommand {

        @Override
        protected int run(Mikyu store) {
            List<PreparedTransaction> branches = store.inDoubtTransactions();
            PrintWriter out = out();
            if (branches.isEmpty()) {
                out.println("no in-doubt transactions");
            }
            Instant now = Instant.now();
            for (PreparedTransaction b : branches) {
                out.println(XidFormat.toText(b.xid())
                        + " owner=" + (b.owner() == null ? "-" : b.owner())
                        + " age=" + age(Duration.between(b.preparedAt(), now))
                        + " prepared=" + b.preparedAt()
                        + " queues=" + (b.queues().isEmpty() ? "-" : String.join(",", b.queues())));
            }
            return 0;
        }
    }

    @Command(name = "commit", mixinStandardHelpOptions = true,
            description = {"Commits an in-doubt transaction: its sends and acknowledgements take effect."},
            footer = {"", "Example: mikyu xa commit 131077:0a1b2c:01"})
    static final class Commit extends StoreCommand {

        @Parameters(index = "0", paramLabel = "XID", description = "As 'mikyu xa list' prints it.")
        String xid;

        @Override
        protected int run(Mikyu store) {
            decide(this, store, xid, true);
            return 0;
        }
    }

    @Command(name = "rollback", mixinStandardHelpOptions = true,
            description = {"Rolls back an in-doubt transaction: its sends are dropped and the messages it consumed"
                    + " are delivered again."},
            footer = {"", "Example: mikyu xa rollback 131077:0a1b2c:01"})
    static final class Rollback extends StoreCommand {

        @Parameters(index = "0", paramLabel = "XID", description = "As 'mikyu xa list' prints it.")
        String xid;

        @Override
        protected int run(Mikyu store) {
            decide(this, store, xid, false);
            return 0;
        }
    }

    private static void decide(StoreCommand command, Mikyu store, String text, boolean commit) {
        byte[] xid;
        try {
            xid = XidFormat.fromText(text);
        } catch (IllegalArgumentException e) {
            throw command.usage("invalid XID: " + e.getMessage());
        }
        try {
            if (commit) {
                store.commitPrepared(xid);
            } else {
                store.rollbackPrepared(xid);
            }
        } catch (TransactionNotFoundException e) {
            throw new CommandException("no in-doubt transaction " + XidFormat.toText(xid) + " (see 'mikyu xa list')",
                    e);
        }
        command.out().println((commit ? "committed " : "rolled back ") + XidFormat.toText(xid));
    }

    /** {@code 45s}, {@code 3m12s}, {@code 2h05m}, {@code 3d04h}: enough to tell a stuck transaction. */
    static String age(Duration d) {
        long s = Math.max(0, d.getSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m" + String.format("%02d", s % 60) + "s";
        }
        if (s < 86_400) {
            return s / 3600 + "h" + String.format("%02d", s % 3600 / 60) + "m";
        }
        return s / 86_400 + "d" + String.format("%02d", s % 86_400 / 3600) + "h";
    }
}
