package io.mikyu.cli;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

@Command(name = "append", mixinStandardHelpOptions = true,
        description = {"Appends a record to a log queue and prints its offset.",
            "With '-' or --stdin, appends one record per line of standard input, in batches."},
        footer = {"", "Examples:",
            "  mikyu append events \"hello world\"",
            "  mikyu append events --key user-1 --header type=signup '{\"id\":1}'",
            "  seq 1000 | mikyu append events -"})
final class AppendCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "QUEUE")
    String queueName;

    @Parameters(index = "1", arity = "0..1", paramLabel = "PAYLOAD",
            description = "The payload, as UTF-8 text; '-' reads lines from standard input.")
    String payload;

    @Option(names = "--stdin", description = "Read payloads from standard input, one record per line.")
    boolean stdin;

    @Option(names = "--key", description = "Record key (UTF-8).")
    String key;

    @Option(names = "--header", paramLabel = "NAME=VALUE", description = "A header; repeat for more.")
    List<String> headers = List.of();

    @Option(names = "--durability", paramLabel = "sync|async",
            description = "Override the queue's durability for this append.")
    Durability durability;

    // Tests substitute standard input here.
    InputStream input = System.in;

    @Override
    protected int run(Mikyu store) throws IOException {
        if (stdin && payload != null) {
            throw new ParameterException(spec.commandLine(), "give a PAYLOAD or --stdin, not both");
        }
        boolean fromStdin = stdin || "-".equals(payload);
        if (fromStdin && Shell.of(spec) != null) {
            throw usage("the shell reads its commands from standard input; give the payload on the line");
        }
        if (!fromStdin && payload == null) {
            throw new ParameterException(spec.commandLine(), "missing PAYLOAD (or '-' to read standard input)");
        }
        Headers recordHeaders = parseHeaders(headers, "--header");
        LogQueue queue = store.log(queueName);
        Durability mode = durability != null ? durability : queue.config().durability();
        if (!fromStdin) {
            out().println(queue.append(entry(payload, recordHeaders), mode));
            return 0;
        }
        appendLines(queue, mode, recordHeaders);
        return 0;
    }

    private void appendLines(LogQueue queue, Durability mode, Headers recordHeaders) throws IOException {
        StdinBatches.Written w = StdinBatches.write(input, line -> entry(line, recordHeaders),
                e -> e.payload().length, batch -> queue.appendBatch(batch, mode));
        long count = w.count();
        long first = w.first();
        if (count == 0) {
            out().println("appended 0 records (standard input was empty)");
        } else {
            // Offsets of one producer's consecutive batches need not be contiguous when others append too.
            out().println("appended " + count + " records from offset " + first);
        }
    }

    private Entry entry(String text, Headers recordHeaders) {
        return new Entry(key == null ? null : key.getBytes(StandardCharsets.UTF_8), recordHeaders,
                text.getBytes(StandardCharsets.UTF_8), Entry.NO_TIMESTAMP);
    }
}
