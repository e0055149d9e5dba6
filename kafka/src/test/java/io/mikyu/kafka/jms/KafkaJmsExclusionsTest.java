package io.mikyu.kafka.jms;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exclusion lists stay honest: each line of the provider's list names a test of its suite, and each line of it and
 * of the TCK's kafka-mode list names a row that docs/kafka.md's feature table has.
 */
class KafkaJmsExclusionsTest {

    @Test
    void everyLineNamesAnExistingTestAndItsRow() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, String> e : KafkaJmsExclusions.excluded().entrySet()) {
            String key = e.getKey();
            int dot = key.indexOf('.');
            Class<?> suite = Class.forName("io.mikyu.jms.classic." + key.substring(0, dot));
            Method test = null;
            for (Method m : suite.getDeclaredMethods()) {
                if (m.getName().equals(key.substring(dot + 1)) && m.isAnnotationPresent(Test.class)) {
                    test = m;
                }
            }
            if (test == null) {
                wrong.add(key + ": no such test");
            } else if (!KafkaJmsExclusions.key(test).equals(key)) {
                wrong.add(key + ": not the declaring class");
            }
            if (!e.getValue().startsWith("row \"")) {
                wrong.add(key + ": the reason does not start with its feature-table row");
            }
        }
        assertThat(KafkaJmsExclusions.excluded()).isNotEmpty();
        assertThat(wrong).isEmpty();
    }

    @Test
    void everyExclusionNamesARowOfTheFeatureTable() throws IOException {
        Path repository = repository();
        List<String> rows = featureRows(repository.resolve("docs/kafka.md"));
        assertThat(rows).as("docs/kafka.md's feature table").isNotEmpty();
        List<String> lines = new ArrayList<>(KafkaJmsExclusions.excluded().values());
        for (String line : Files.readAllLines(repository.resolve("tck-runner/src/test/resources/tck-kafka-exclusions.txt"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                lines.add(line.substring(line.indexOf(": ") + 2));
            }
        }
        List<String> unknown = new ArrayList<>();
        for (String reason : lines) {
            Matcher row = ROW.matcher(reason);
            if (!row.lookingAt() || rows.stream().noneMatch(r -> r.startsWith(row.group(1)))) {
                unknown.add(reason);
            }
        }
        assertThat(unknown).as("reasons whose row is not in the feature table").isEmpty();
    }

    private static final Pattern ROW = Pattern.compile("row \"([^\"]+)\"");

    /** The first cells of the feature table's rows (the section "## Feature table"), without their markup. */
    private static List<String> featureRows(Path page) throws IOException {
        List<String> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("## ")) {
                inTable = line.equals("## Feature table");
            } else if (inTable && line.startsWith("| ") && !line.startsWith("| feature ")) {
                rows.add(line.substring(2, line.indexOf(" |", 1)).replace("`", ""));
            }
        }
        return rows;
    }

    /** The repository's root, found from the module's directory up. */
    private static Path repository() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/kafka.md"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no docs/kafka.md above " + Path.of("").toAbsolutePath());
    }
}
