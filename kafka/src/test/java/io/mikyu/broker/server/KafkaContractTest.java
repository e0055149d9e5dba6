package io.mikyu.broker.server;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.kafka.support.KafkaTestCluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Mikyu contract suite against the Kafka backend ({@code Mikyu.dial("kafka://...")} on the in-JVM cluster).
 * It lives in the broker's test package to extend the suite; the tests it skips are listed, each with the gap
 * that makes it fail, in {@code kafka-contract-exclusions.txt} (the rows of docs/kafka.md's feature table).
 */
@Tag("kafka")
@ExtendWith({KafkaTestCluster.Shared.class, KafkaContractTest.Exclusions.class})
class KafkaContractTest extends MikyuContractTest {

    static Stream<ContractBackend> contractBackends() {
        return Stream.of(new KafkaBackend());
    }

    /** Each test gets a store of its own (a topic prefix) on the shared cluster; the directory is not used. */
    private static final class KafkaBackend implements ContractBackend {
        @Override
        public Store open(Path dir, EngineConfig config) {
            Mikyu mikyu = KafkaTestCluster.dial();
            return new Store(mikyu, mikyu::close);
        }

        @Override
        public String toString() {
            return "KAFKA";
        }
    }

    /** Skips the tests named in the exclusion list, giving its reason. */
    static final class Exclusions implements ExecutionCondition {
        private static final Map<String, String> EXCLUDED = read();

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String method = context.getTestMethod().map(m -> m.getName()).orElse(null);
            if (method != null && EXCLUDED.containsKey(method)) {
                return ConditionEvaluationResult.disabled("not on Kafka: " + EXCLUDED.get(method));
            }
            return ConditionEvaluationResult.enabled("in the contract on Kafka");
        }

        private static Map<String, String> read() {
            Map<String, String> excluded = new LinkedHashMap<>();
            try (InputStream in = KafkaContractTest.class.getResourceAsStream("/kafka-contract-exclusions.txt")) {
                if (in == null) {
                    throw new IllegalStateException("kafka-contract-exclusions.txt is missing from the test resources");
                }
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                for (String line; (line = reader.readLine()) != null; ) {
                    line = line.strip();
                    if (line.isEmpty() || line.startsWith("#")) {
                        continue;
                    }
                    int colon = line.indexOf(':');
                    excluded.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return excluded;
        }
    }
}
