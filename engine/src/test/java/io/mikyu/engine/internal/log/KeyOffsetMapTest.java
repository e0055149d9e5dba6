package io.mikyu.engine.internal.log;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class KeyOffsetMapTest {

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aKeyMapsToTheNewestOffsetPutForIt() {
        KeyOffsetMap map = KeyOffsetMap.withAtMost(1 << 20, 100);
        assertThat(map.put(key("a"), 0)).isTrue();
        assertThat(map.put(key("b"), 1)).isTrue();
        assertThat(map.put(key("a"), 7)).isTrue();
        assertThat(map.get(key("a"))).isEqualTo(7);
        assertThat(map.get(key("b"))).isEqualTo(1);
        assertThat(map.get(key("c"))).as("a key never put").isEqualTo(-1);
        assertThat(map.size()).isEqualTo(2);
    }

    @Test
    void offsetZeroAndEmptyKeysAreKeys() {
        KeyOffsetMap map = KeyOffsetMap.withAtMost(1 << 20, 10);
        map.put(new byte[0], 0);
        assertThat(map.get(new byte[0])).isZero();
        assertThat(map.get(new byte[1])).isEqualTo(-1);
    }

    @Test
    void theMemoryIsTheBudgetAndAFullMapRefusesNewKeysOnly() {
        KeyOffsetMap map = KeyOffsetMap.withAtMost(24 * 100, 1_000_000);
        assertThat(map.bytes()).as("24 bytes a slot, within the budget").isEqualTo(24 * 100);
        assertThat(map.maxKeys()).as("three quarters of the slots").isEqualTo(75);
        for (int i = 0; i < 75; i++) {
            assertThat(map.put(key("k" + i), i)).isTrue();
        }
        assertThat(map.put(key("one too many"), 75)).isFalse();
        assertThat(map.get(key("one too many"))).isEqualTo(-1);
        assertThat(map.put(key("k3"), 76)).as("a key already in the map is updated").isTrue();
        assertThat(map.get(key("k3"))).isEqualTo(76);
        for (int i = 0; i < 75; i++) {
            if (i != 3) {
                assertThat(map.get(key("k" + i))).isEqualTo(i);
            }
        }
    }

    @Test
    void aMapForFewKeysTakesLessThanTheBudget() {
        KeyOffsetMap map = KeyOffsetMap.withAtMost(16 << 20, 1000);
        assertThat(map.bytes()).isLessThan(64 * 1024);
        assertThat(map.maxKeys()).isGreaterThanOrEqualTo(1000);
    }

    @Test
    void clearEmptiesTheMapForTheNextPass() {
        KeyOffsetMap map = KeyOffsetMap.withAtMost(24 * 8, 100);
        for (int i = 0; i < map.maxKeys(); i++) {
            map.put(key("k" + i), i);
        }
        map.clear();
        assertThat(map.size()).isZero();
        assertThat(map.get(key("k0"))).isEqualTo(-1);
        assertThat(map.put(key("new"), 9)).isTrue();
    }

    @Test
    void manyKeysInAFullTableAreAllFoundAfterProbing() {
        KeyOffsetMap map = KeyOffsetMap.withAtMost(24 * 40_000, 1_000_000);
        int n = map.maxKeys();
        for (int i = 0; i < n; i++) {
            assertThat(map.put(key("key-" + i), 2L * i)).isTrue();
        }
        for (int i = 0; i < n; i++) {
            assertThat(map.get(key("key-" + i))).isEqualTo(2L * i);
        }
        for (int i = n; i < n + 1000; i++) {
            assertThat(map.get(key("key-" + i))).isEqualTo(-1);
        }
    }
}
