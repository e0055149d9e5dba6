package io.mikyu.kafka.jms;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Skips the JMS provider's own tests that the Kafka backend cannot pass, as listed with their reasons in
 * {@code kafka-jms-exclusions.txt}: {@code <class declaring the test>.<method>: <reason>}, the reason naming its row of
 * docs/kafka.md's feature table. A skipped test shows its reason in the report; it is never counted as passed.
 */
public final class KafkaJmsExclusions implements ExecutionCondition {

    static final String LIST = "/kafka-jms-exclusions.txt";
    private static final Map<String, String> EXCLUDED = read();

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Method method = context.getTestMethod().orElse(null);
        if (method == null) {
            return ConditionEvaluationResult.enabled("a class");
        }
        String why = EXCLUDED.get(key(method));
        return why == null ? ConditionEvaluationResult.enabled("in the provider's suite on Kafka")
                : ConditionEvaluationResult.disabled("not on Kafka: " + why);
    }

    /** {@code QueueDeliveryTest.aTransactedSession...}: the class that declares the test, as the list names it. */
    static String key(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }

    /** The list: test to reason. */
    static Map<String, String> excluded() {
        return EXCLUDED;
    }

    private static Map<String, String> read() {
        Map<String, String> excluded = new LinkedHashMap<>();
        try (InputStream in = KafkaJmsExclusions.class.getResourceAsStream(LIST)) {
            if (in == null) {
                throw new IllegalStateException(LIST + " is missing from the test resources");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = reader.readLine()) != null; ) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int colon = line.indexOf(':');
                if (colon < 0 || line.substring(colon + 1).isBlank()) {
                    throw new IllegalStateException(LIST + ": a line without its reason: " + line);
                }
                excluded.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return excluded;
    }
}
