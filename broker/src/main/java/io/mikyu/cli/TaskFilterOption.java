package io.mikyu.cli;

import io.mikyu.engine.HeaderEquals;
import io.mikyu.engine.TaskFilter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code --header-equals}: which tasks a dequeue or browse considers. */
final class TaskFilterOption {

    @Option(names = "--header-equals", paramLabel = "NAME=VALUE",
            description = "Only tasks whose header NAME is VALUE; repeat to require several.")
    List<String> headerEquals = List.of();

    /** The filter, or {@code null} for every task. */
    TaskFilter filter(CommandSpec spec) {
        if (headerEquals.isEmpty()) {
            return null;
        }
        Map<String, String> expected = new LinkedHashMap<>();
        for (String text : headerEquals) {
            int eq = text.indexOf('=');
            if (eq <= 0) {
                throw new ParameterException(spec.commandLine(), "--header-equals '" + text + "' is not NAME=VALUE");
            }
            String name = text.substring(0, eq);
            String value = text.substring(eq + 1);
            String earlier = expected.put(name, value);
            if (earlier != null && !earlier.equals(value)) {
                throw new ParameterException(spec.commandLine(), "--header-equals asks for header " + name
                        + " to be both '" + earlier + "' and '" + value + "'");
            }
        }
        return new HeaderEquals(expected);
    }
}
