package io.mikyu.tck;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

import java.util.List;

/**
 * Puts the cause the TCK logged into the failure it throws. A TCK test that fails typically throws
 * {@code new Exception("qcfCreateJMSContextTest1")}: no cause, only the test's name; the provider's exception went
 * to the log just before. This extension appends the first error lines the test logged ({@link TckLog}) to the
 * message and keeps the original exception as the cause, so the console, the Surefire reports and
 * {@code tck-summary.txt} tell why. It changes no verdict: a test that failed still fails, with the same kind of
 * throwable (an {@link AssertionError} stays one).
 *
 * <p>Registered through {@code META-INF/services/org.junit.jupiter.api.extension.Extension}, which JUnit reads
 * because the run sets {@code junit.jupiter.extensions.autodetection.enabled=true}.
 */
public final class TckFailureCause implements BeforeEachCallback, TestExecutionExceptionHandler {

    @Override
    public void beforeEach(ExtensionContext context) {
        TckLog.clear();
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        List<String> logged = TckLog.errors();
        if (logged.isEmpty() || thrown.getCause() != null) {
            throw thrown;
        }
        String message = thrown.getMessage() + " -- the TCK logged: " + String.join(" | ", logged);
        Throwable explained = thrown instanceof AssertionError ? new AssertionError(message, thrown)
                : new Exception(message, thrown);
        explained.setStackTrace(thrown.getStackTrace());
        throw explained;
    }
}
