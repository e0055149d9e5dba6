package io.mikyu.cli;

import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "compact", mixinStandardHelpOptions = true,
        description = {"Compacts a log queue now, keeping the newest record per key.",
            "Prints how many records were removed. Compaction and retention also run in the background."})
final class CompactCommand extends StoreCommand {

    @Parameters(paramLabel = "QUEUE")
    String name;

    @Option(names = "--retention", description = "Also apply the queue's retention limits now.")
    boolean retention;

    @Override
    protected int run(Mikyu store) {
        LogQueue queue = store.log(name);
        long compacted = queue.compact();
        out().println("compaction removed " + compacted + " records from " + name);
        if (retention) {
            out().println("retention removed " + queue.applyRetention() + " records from " + name);
        }
        return 0;
    }
}
