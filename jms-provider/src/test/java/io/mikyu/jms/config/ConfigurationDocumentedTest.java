package io.mikyu.jms.config;

import io.mikyu.engine.config.MikyuConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every key of the configuration surface is documented: the config file's and daemon's keys
 * ({@link MikyuConfig.Key}) in a table of {@code docs/configuration.md} with their default, and every URL option of
 * the provider ({@code vm://}, {@code tcp://}: its own, the network client's, the engine's) in a table of
 * {@code docs/configuration.md} or {@code docs/jms.md}. A key added to the code without a row fails here.
 */
class ConfigurationDocumentedTest {

    private static final Path DOCS = docs();

    @Test
    void everyConfigFileKeyHasARowWithItsDefault() throws IOException {
        List<String> rows = tableRows("configuration.md");
        List<String> missing = new ArrayList<>();
        for (MikyuConfig.Key key : MikyuConfig.Key.values()) {
            Optional<String> row = rowNaming(rows, key.key());
            if (row.isEmpty()) {
                missing.add(key.key() + " (no row)");
            } else if (!key.defaultValue().isEmpty()
                    && !normalized(defaultCell(row.get())).contains(normalized(key.defaultValue()))) {
                missing.add(key.key() + " (default " + key.defaultValue() + " not in: " + row.get() + ")");
            }
        }
        assertThat(missing).as("keys of MikyuConfig.Key not documented in docs/configuration.md").isEmpty();
    }

    @Test
    void everyUrlOptionHasARowWithADefaultAndAMeaning() throws IOException {
        List<String> rows = new ArrayList<>(tableRows("configuration.md"));
        rows.addAll(tableRows("jms.md"));
        TreeSet<String> options = new TreeSet<>(ProviderOptions.KNOWN);
        options.addAll(ProviderOptions.DIAL);
        options.addAll(ProviderOptions.ENGINE);
        List<String> missing = new ArrayList<>();
        for (String option : options) {
            Optional<String> row = rowNaming(rows, option);
            if (row.isEmpty()) {
                missing.add(option + " (no row)");
            } else if (cells(row.get()).size() < 3 || cells(row.get()).get(2).isBlank()) {
                missing.add(option + " (no default and meaning: " + row.get() + ")");
            }
        }
        assertThat(missing).as("URL options not documented in docs/configuration.md or docs/jms.md").isEmpty();
    }

    /** The first table row whose first cell names {@code key} in backticks. */
    private static Optional<String> rowNaming(List<String> rows, String key) {
        return rows.stream().filter(r -> !cells(r).isEmpty() && cells(r).get(0).contains("`" + key + "`")).findFirst();
    }

    private static String defaultCell(String row) {
        List<String> cells = cells(row);
        return cells.size() > 1 ? cells.get(1) : "";
    }

    private static List<String> cells(String row) {
        List<String> cells = new ArrayList<>();
        for (String c : row.substring(1).split("\\|")) {
            cells.add(c.trim());
        }
        return cells;
    }

    /** "8 MiB" and "8MiB", "`ASYNC`" and "async", "10,000" and "10000" are the same default. */
    private static String normalized(String s) {
        return s.replaceAll("[\\s`,_]", "").toLowerCase(Locale.ROOT);
    }

    private static List<String> tableRows(String page) throws IOException {
        return Files.readAllLines(DOCS.resolve(page)).stream().filter(l -> l.startsWith("|")).toList();
    }

    /** The repository's docs/, found from the module's directory up. */
    private static Path docs() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/configuration.md"))) {
                return dir.resolve("docs");
            }
        }
        throw new IllegalStateException("no docs/configuration.md above " + Path.of("").toAbsolutePath());
    }
}
