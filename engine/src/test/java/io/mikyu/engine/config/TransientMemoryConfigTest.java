package io.mikyu.engine.config;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.EngineConfig.TransientMemoryPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The transient-memory keys: sizes or percentages of the heap, the policy's names, and clear refusals. */
class TransientMemoryConfigTest {

    private static EngineConfig engine(Map<String, String> values) {
        return MikyuConfig.load(null, values, "URL").engineConfig().build();
    }

    @Test
    void defaultsAreAQuarterOfTheHeapBlockingUpToThirtySeconds() {
        EngineConfig e = engine(Map.of());
        assertThat(e.transientMemoryLimit()).isEqualTo((long) (Runtime.getRuntime().maxMemory() * 25 / 100.0));
        assertThat(e.transientMemoryLimitPerQueue()).isZero();
        assertThat(e.transientMemoryPolicy()).isEqualTo(TransientMemoryPolicy.BLOCK);
        assertThat(e.transientMemoryBlockTimeout()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void sizesPercentagesPoliciesAndTimeoutsAreRead() {
        EngineConfig e = engine(Map.of("transientMemoryLimit", "64MiB", "transientMemoryLimitPerQueue", "10%",
                "transientMemoryPolicy", "Spill", "transientMemoryBlockTimeout", "5s"));
        assertThat(e.transientMemoryLimit()).isEqualTo(64L << 20);
        assertThat(e.transientMemoryLimitPerQueue()).isEqualTo((long) (Runtime.getRuntime().maxMemory() * 10 / 100.0));
        assertThat(e.transientMemoryPolicy()).isEqualTo(TransientMemoryPolicy.SPILL);
        assertThat(e.transientMemoryBlockTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(engine(Map.of("transientMemoryLimit", "0")).transientMemoryLimit()).isZero();
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> engine(Map.of("transientMemoryPolicy", "drop")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("transientMemoryPolicy=drop").hasMessageContaining("block, fail or spill");
        assertThatThrownBy(() -> engine(Map.of("transientMemoryLimit", "150%")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("transientMemoryLimit")
                .hasMessageContaining("percentage of the maximum heap");
        assertThatThrownBy(() -> engine(Map.of("transientMemoryLimit", "lots")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("transientMemoryLimit");
    }
}
