package io.mikyu.engine.config;

import io.mikyu.engine.EngineConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code taskWindow}: the ready tasks a task queue holds in memory, as a key of the configuration surface. */
class TaskWindowSettingTest {

    @Test
    void theWindowIsAnEngineKeyWithADefault() {
        assertThat(EngineConfig.defaults().taskWindow()).isEqualTo(32_768);
        MikyuConfig config = MikyuConfig.load(null, Map.of("taskWindow", "100"), "test");
        assertThat(config.engineConfig().build().taskWindow()).isEqualTo(100);
        assertThat(MikyuConfig.load(null, Map.of("taskWindow", "0"), "test").engineConfig().build().taskWindow())
                .as("0: every task in memory").isZero();
    }

    @Test
    void aNegativeWindowIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> MikyuConfig.load(null, Map.of("taskWindow", "-1"), "test").engineConfig().build())
                .hasMessageContaining("taskWindow=-1");
        assertThatThrownBy(() -> EngineConfig.builder().taskWindow(-1))
                .hasMessageContaining("taskWindow must not be negative");
    }
}
