package io.mikyu.cli;

import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;

@Command(name = "read", mixinStandardHelpOptions = true,
        description = {"Prints records of a log queue from an offset on.",
            "One line per record: offset, time (ISO-8601, UTC), key, headers and payload. Text prints as text"
                + " (line breaks as \\n); other bytes as base64:... or hex:...."},
        footer = {"", "Example: mikyu read events 0 --count 10"})
final class ReadCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "QUEUE")
    String queueName;

    @Parameters(index = "1", paramLabel = "OFFSET", description = "First offset to print.")
    long offset;

    @Option(names = {"-n", "--count"}, paramLabel = "N", defaultValue = "1",
            description = "How many records to print (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--binary-as", paramLabel = "base64|hex", defaultValue = "base64",
            description = "How to print bytes that are not text (default: ${DEFAULT-VALUE}).")
    TextFormat.Binary binary;

    @Override
    protected int run(Mikyu store) {
        if (offset < 0 || count < 1) {
            throw new ParameterException(spec.commandLine(),
                    offset < 0 ? "OFFSET must not be negative" : "--count must be at least 1");
        }
        LogQueue queue = store.log(queueName);
        long end = queue.endOffset();
        if (offset >= end) {
            String stored = end == queue.startOffset() ? "it is empty"
                    : "its records are " + queue.startOffset() + ".." + (end - 1);
            throw new CommandException("offset " + offset + " is past the end of " + queueName + " (" + stored + ")");
        }
        PrintWriter out = out();
        long next = offset;
        int printed = 0;
        while (printed < count) {
            List<Record> records = queue.read(next, count - printed);
            if (records.isEmpty()) {
                break;
            }
            for (Record record : records) {
                out.println(TextFormat.record(record, binary));
                next = record.offset() + 1;
            }
            printed += records.size();
            if (out.checkError()) {
                break; // the reader went away, as in `mikyu read q 0 -n 1000000 | head`
            }
        }
        return 0;
    }
}
