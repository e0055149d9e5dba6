package io.mikyu.engine.internal.memory;

import io.mikyu.engine.Headers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a transient task is counted for: its payload, and each header's name and value, a null value as empty. */
class TransientMemoryFootprintTest {

    @Test
    void aHeaderWithANullValueCountsLikeAnEmptyOne() {
        Headers withNull = Headers.builder().add("gone", (byte[]) null).build();
        Headers withEmpty = Headers.builder().add("gone", new byte[0]).build();
        assertThat(TransientMemory.footprint(withNull, new byte[10]))
                .isEqualTo(TransientMemory.footprint(withEmpty, new byte[10]));
    }

    @Test
    void aLongerValueCountsMore() {
        assertThat(TransientMemory.footprint(Headers.of("h", "12345"), null))
                .isEqualTo(TransientMemory.footprint(Headers.of("h", ""), null) + 5);
    }
}
