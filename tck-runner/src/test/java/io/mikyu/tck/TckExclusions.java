package io.mikyu.tck;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Skips the TCK tests a mode lists as out of its reach, with the reason: {@code tck-<mode>-exclusions.txt} (only
 * kafka mode has one), one line per test, {@code <class>#<method>: <reason>}, the reason naming its row of
 * docs/kafka.md's feature table. A skipped test is counted as skipped by {@link TckSummary}, never as passed.
 * Registered like {@link TckFailureCause}.
 */
public final class TckExclusions implements ExecutionCondition {

    private static final Map<String, String> EXCLUDED = read("/tck-" + System.getProperty("tck.mode", "vm")
            + "-exclusions.txt");

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isEmpty()) {
            return ConditionEvaluationResult.enabled("a class");
        }
        String key = context.getRequiredTestClass().getName() + "#" + context.getRequiredTestMethod().getName();
        String why = EXCLUDED.get(key);
        return why == null ? ConditionEvaluationResult.enabled("not excluded")
                : ConditionEvaluationResult.disabled("excluded in " + System.getProperty("tck.mode") + " mode: " + why);
    }

    private static Map<String, String> read(String list) {
        Map<String, String> excluded = new LinkedHashMap<>();
        try (InputStream in = TckExclusions.class.getResourceAsStream(list)) {
            if (in == null) {
                return excluded; // this mode excludes nothing
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = reader.readLine()) != null; ) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int colon = line.indexOf(": ");
                if (colon < 0) {
                    throw new IllegalStateException(list + ": a line without its reason: " + line);
                }
                excluded.put(line.substring(0, colon).strip(), line.substring(colon + 2).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return excluded;
    }
}
