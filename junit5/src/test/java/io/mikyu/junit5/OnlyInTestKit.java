package io.mikyu.junit5;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A fixture class of the specification: run by {@link Kit} only (some of its tests fail on purpose), skipped when an
 * IDE or the build finds it on its own.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(OnlyInTestKit.Condition.class)
@interface OnlyInTestKit {

    String PARAMETER = "mikyu.junit5.fixtures";

    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(PARAMETER).isPresent()
                    ? ConditionEvaluationResult.enabled("run by the specification")
                    : ConditionEvaluationResult.disabled("a fixture of the specification, run by it only");
        }
    }
}
