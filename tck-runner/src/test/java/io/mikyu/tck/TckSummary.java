package io.mikyu.tck;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the TCK's tests and ends the run with {@code TCK: N passed, N failed} (then {@code , N skipped} when some
 * were skipped or aborted). A test counts as failed when it failed, and also when it never ran because its class
 * failed before it (a failing {@code @BeforeAll}, a class that cannot load): JUnit reports no result for those, so
 * without this they would vanish from the count. The counts, and each failed test with the first line of its
 * failure, also go to the file named by the system property {@code tck.summaryFile}, if set, which
 * {@link TckVerdict} prints at the end of the build.
 */
public final class TckSummary implements TestExecutionListener {

    private final AtomicInteger passed = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger skipped = new AtomicInteger();
    private final AtomicInteger aborted = new AtomicInteger();
    /** Failed test → the first line of its failure's message. */
    private final Map<String, String> failedTests = new ConcurrentHashMap<>();
    private volatile int discoveredTests;
    private volatile int discoveredClasses;
    private volatile TestPlan plan;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        TckHarness.init();
        plan = testPlan;
        discoveredTests = (int) testPlan.countTestIdentifiers(TestIdentifier::isTest);
        discoveredClasses = (int) testPlan.countTestIdentifiers(TckSummary::isClass);
        System.out.printf("TCK: discovered %d tests in %d classes%n", discoveredTests, discoveredClasses);
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        if (id.isTest()) {
            skipped.incrementAndGet();
        } else {
            // a skipped container skips its tests without reporting them one by one
            skipped.addAndGet((int) plan.getDescendants(id).stream().filter(TestIdentifier::isTest).count());
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (!id.isTest()) {
            if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                // its tests that had not run yet are counted as "not run" at the end
                failedTests.put(name(id) + " (the class)", result.getThrowable().map(TckSummary::firstLine)
                        .orElse(""));
            }
            return;
        }
        switch (result.getStatus()) {
            case SUCCESSFUL -> passed.incrementAndGet();
            case ABORTED -> aborted.incrementAndGet();
            case FAILED -> {
                failed.incrementAndGet();
                failedTests.put(name(id), result.getThrowable().map(TckSummary::firstLine).orElse(""));
            }
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        int notRun = discoveredTests - passed.get() - failed.get() - skipped.get() - aborted.get();
        int failedOrNotRun = failed.get() + Math.max(notRun, 0);
        int skippedOrAborted = skipped.get() + aborted.get();
        String detail = String.format("TCK: %d tests in %d classes: %d passed, %d failed, %d not run (their class "
                        + "failed), %d skipped, %d aborted", discoveredTests, discoveredClasses, passed.get(),
                failed.get(), Math.max(notRun, 0), skipped.get(), aborted.get());
        String line = "TCK: " + passed.get() + " passed, " + failedOrNotRun + " failed"
                + (skippedOrAborted > 0 ? ", " + skippedOrAborted + " skipped" : "");
        writeSummaryFile(detail, line);
        PrintStream out = System.out;
        out.println(detail);
        out.println(line);
        out.flush();
    }

    private void writeSummaryFile(String detail, String line) {
        String file = System.getProperty("tck.summaryFile");
        if (file == null || file.isEmpty()) {
            return;
        }
        List<String> lines = new ArrayList<>();
        lines.add(detail);
        lines.add(line);
        lines.add("");
        lines.add("failed tests:");
        new TreeMap<>(failedTests).forEach((test, why) -> lines.add("  " + test + (why.isEmpty() ? "" : ": " + why)));
        try {
            Files.write(Path.of(file), lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.out.println("TCK: cannot write " + file + ": " + e);
        }
    }

    private static String firstLine(Throwable t) {
        String m = String.valueOf(t.getMessage()).strip();
        int nl = m.indexOf('\n');
        return t.getClass().getSimpleName() + ": " + (nl < 0 ? m : m.substring(0, nl));
    }

    private static boolean isClass(TestIdentifier id) {
        return id.isContainer() && id.getSource().filter(ClassSource.class::isInstance).isPresent();
    }

    private static String name(TestIdentifier id) {
        return id.getSource().map(s -> s instanceof MethodSource m ? m.getClassName() + "#" + m.getMethodName()
                : s instanceof ClassSource c ? c.getClassName() : null).orElse(id.getUniqueId());
    }
}
