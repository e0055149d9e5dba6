package io.mikyu.tck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The last step of a TCK run ({@code verify}, after Surefire): prints the counts {@link TckSummary} wrote, ending
 * with {@code TCK: N passed, N failed}, and fails the build if any test failed or the run wrote no counts. Surefire
 * itself is told to ignore failures so that every test runs, the reports are written and this step is reached;
 * this step makes the build's outcome say what the counts say. {@code -Dtck.failOnFailures=false} keeps the build
 * green while failures are expected (the counts are printed all the same).
 *
 * <p>Arguments: the summary file, and {@code true}/{@code false} for failing on failures.
 */
public final class TckVerdict {

    private static final Pattern COUNTS = Pattern.compile("TCK: (\\d+) passed, (\\d+) failed(?:, (\\d+) skipped)?");

    private TckVerdict() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        boolean failOnFailures = args.length < 2 || Boolean.parseBoolean(args[1]);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("the TCK run wrote no counts (" + file + " is missing): it did not run "
                    + "to its end; see target/surefire-reports");
        }
        Matcher counts = lines.size() < 2 ? null : COUNTS.matcher(lines.get(1));
        if (counts == null || !counts.matches()) {
            throw new IllegalStateException(file + " does not hold the TCK's counts");
        }
        int failed = Integer.parseInt(counts.group(2));
        System.out.println(lines.get(0));
        if (failed > 0) {
            System.out.println("TCK: the failed tests are listed in " + file + "; the causes are in "
                    + file.resolveSibling("surefire-reports") + " (TEST-<class>.xml, <class>-output.txt)");
        }
        System.out.println(lines.get(1));
        System.out.flush();
        if (failed > 0 && failOnFailures) {
            throw new IllegalStateException(failed + " TCK tests failed (-Dtck.failOnFailures=false to pass the "
                    + "build anyway)");
        }
    }
}
