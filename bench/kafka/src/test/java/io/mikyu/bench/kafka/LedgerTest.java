package io.mikyu.bench.kafka;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LedgerTest {

    @Test
    void shouldCountEveryMessageOnceAndTheMissingOnesAsLost() {
        Ledger ledger = new Ledger(2);
        assertThat(ledger.first(true, 0, 0)).isTrue();
        assertThat(ledger.first(true, 0, 1)).isTrue();
        assertThat(ledger.first(true, 1, 0)).isTrue();
        assertThat(ledger.lost(new long[] {2, 3})).isEqualTo(2);
        assertThat(ledger.duplicates()).isZero();
        assertThat(ledger.foreign()).isZero();
    }

    @Test
    void shouldRefuseASecondCopyAsADuplicate() {
        Ledger ledger = new Ledger(1);
        ledger.first(true, 0, 7);
        assertThat(ledger.first(true, 0, 7)).isFalse();
        assertThat(ledger.duplicates()).isEqualTo(1);
    }

    @Test
    void shouldCountAMessageOfAnotherRunOrAnUnknownProducerAsForeign() {
        Ledger ledger = new Ledger(1);
        assertThat(ledger.first(false, 0, 0)).isFalse();
        assertThat(ledger.first(true, 3, 0)).isFalse();
        assertThat(ledger.foreign()).isEqualTo(2);
        assertThat(ledger.lost(new long[] {1})).isEqualTo(1);
    }
}
