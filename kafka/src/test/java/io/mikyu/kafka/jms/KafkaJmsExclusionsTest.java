package io.mikyu.kafka.jms;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The exclusion list stays honest: each line names a test of the provider's suite and a row of the feature table. */
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
}
