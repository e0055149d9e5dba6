package io.mikyu.junit5;

import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventStatistics;
import org.junit.platform.testkit.engine.EngineExecutionResults;

import java.util.function.Consumer;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** Runs fixture classes ({@link OnlyInTestKit}) through the Jupiter engine and returns what happened. */
final class Kit {

    private Kit() {
    }

    /** What happened running {@code fixture}. */
    static EngineExecutionResults run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter(OnlyInTestKit.PARAMETER, "true")
                .selectors(selectClass(fixture))
                .execute();
    }

    /** Runs {@code fixture} and checks its tests' outcome, e.g. {@code s -> s.started(2).succeeded(2)}. */
    static EngineExecutionResults runExpecting(Class<?> fixture, Consumer<EventStatistics> tests) {
        EngineExecutionResults results = run(fixture);
        try {
            results.testEvents().assertStatistics(tests);
        } catch (AssertionError e) {
            // Say why the fixture's tests failed, not only how many did.
            results.allEvents().failed().stream()
                    .forEach(f -> f.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                            .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable)
                            .ifPresent(e::addSuppressed));
            throw e;
        }
        return results;
    }
}
