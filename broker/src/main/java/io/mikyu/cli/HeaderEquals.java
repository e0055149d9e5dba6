package io.mikyu.cli;

import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskView;

import java.util.Map;

/**
 * {@code --header-equals NAME=VALUE}: tasks whose header {@code NAME} (its last value, as UTF-8) is {@code VALUE},
 * for every pair given. A record, so that equal filters are equal: the engine keeps one index per filter.
 */
record HeaderEquals(Map<String, String> expected) implements TaskFilter {

    HeaderEquals {
        expected = Map.copyOf(expected);
    }

    @Override
    public boolean matches(TaskView task) {
        for (Map.Entry<String, String> e : expected.entrySet()) {
            if (!e.getValue().equals(task.headers().getString(e.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
