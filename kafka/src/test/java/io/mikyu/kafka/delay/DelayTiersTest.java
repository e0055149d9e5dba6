package io.mikyu.kafka.delay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DelayTiersTest {

    @Test
    void aDelayGoesToTheLongestHoldNotLongerThanIt() {
        assertThat(DelayTiers.tierFor(1)).isZero();
        assertThat(DelayTiers.tierFor(3_999)).isZero();
        assertThat(DelayTiers.tierFor(4_000)).isEqualTo(1);
        assertThat(DelayTiers.tierFor(60_000)).isEqualTo(2);
        assertThat(DelayTiers.tierFor(3_600_000)).isEqualTo(5);
        assertThat(DelayTiers.tierFor(Long.MAX_VALUE)).isEqualTo(DelayTiers.TIERS - 1);
        for (long remaining = 1; remaining < 100_000_000; remaining = remaining * 3 + 1) {
            int tier = DelayTiers.tierFor(remaining);
            assertThat(tier == 0 || DelayTiers.holdMillis(tier) <= remaining).as("tier of " + remaining).isTrue();
        }
    }

    @Test
    void aRecordIsNeverForwardedBeforeItsTime() {
        long written = 1_000_000;
        for (long delay = 1; delay < 50_000_000; delay = delay * 2 + 7) {
            long deliverAt = written + delay;
            long now = written;
            int hops = 0;
            // Forwarded from tier to tier at each due time, as the forwarder does, until nothing is left.
            while (deliverAt - now > 0) {
                int tier = DelayTiers.tierFor(deliverAt - now);
                long due = DelayTiers.forwardAt(tier, now, deliverAt);
                assertThat(due).isLessThanOrEqualTo(deliverAt).isGreaterThan(now);
                now = due;
                hops++;
            }
            assertThat(now).as("forwarded to its queue at its time").isEqualTo(deliverAt);
            assertThat(hops).as("hops of a " + delay + " ms delay").isLessThanOrEqualTo(3 * DelayTiers.TIERS + 1);
        }
    }

    @Test
    void tierTopicsAreNamedAndRecognised() {
        DelayTiers tiers = new DelayTiers("shop");
        assertThat(tiers.topic(3)).isEqualTo("shop.delay.3");
        assertThat(tiers.tierOf("shop.delay.3")).isEqualTo(3);
        assertThat(tiers.tierOf("shop.task.jobs")).isEqualTo(-1);
        assertThat(tiers.tierOf("shop.delay.99")).isEqualTo(-1);
        assertThat("shop.delay.7").matches(tiers.topicPattern());
        assertThat("shopXdelay.7").doesNotMatch(tiers.topicPattern());
        assertThatThrownBy(() -> tiers.topic(DelayTiers.TIERS)).isInstanceOf(IllegalArgumentException.class);
    }
}
