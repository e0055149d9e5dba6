package io.mikyu.kafka.share;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DeliveryCountsTest {

    @Test
    void aCountKafkaLowersIsShownOneAboveTheLastShown() {
        DeliveryCounts counts = new DeliveryCounts(10);
        assertThat(counts.delivered("c/g/t", 7, 1)).isEqualTo(1);
        assertThat(counts.delivered("c/g/t", 7, 2)).isEqualTo(2);
        // A failover lost Kafka's count: the record comes again counted 1.
        assertThat(counts.delivered("c/g/t", 7, 1)).isEqualTo(3);
        // Kafka's count wins when it is higher.
        assertThat(counts.delivered("c/g/t", 7, 9)).isEqualTo(9);
    }

    @Test
    void aFinishedRecordIsCountedByKafkaAgain() {
        DeliveryCounts counts = new DeliveryCounts(10);
        counts.delivered("c/g/t", 7, 4);
        counts.finished("c/g/t", 7);
        assertThat(counts.delivered("c/g/t", 7, 1)).isEqualTo(1);
    }

    @Test
    void scopesAndOffsetsAreCountedApart() {
        DeliveryCounts counts = new DeliveryCounts(10);
        counts.delivered("c/g/t", 7, 3);
        assertThat(counts.delivered("c/other/t", 7, 1)).isEqualTo(1);
        assertThat(counts.delivered("c/g/t", 8, 1)).isEqualTo(1);
    }

    @Test
    void theOldestCountIsForgottenPastTheCapacity() {
        DeliveryCounts counts = new DeliveryCounts(2);
        counts.delivered("s", 1, 5);
        counts.delivered("s", 2, 5);
        counts.delivered("s", 3, 5);
        assertThat(counts.delivered("s", 1, 1)).as("forgotten").isEqualTo(1);
        assertThat(counts.delivered("s", 3, 1)).as("kept").isEqualTo(6);
    }

    @Test
    void aDeliveryNoOneWasShownIsLeftOutOfTheLaterCountsUntilTheRecordIsFinished() {
        DeliveryCounts counts = new DeliveryCounts(10);
        // Acquired by a fetch no one waited for (Kafka counted 1), released undelivered: its first delivery shows 1.
        counts.notShown("c/g/t", 7);
        assertThat(counts.delivered("c/g/t", 7, 2)).isEqualTo(1);
        assertThat(counts.delivered("c/g/t", 7, 3)).as("left out of the next deliveries too").isEqualTo(2);
        counts.notShown("c/g/t", 7);
        assertThat(counts.delivered("c/g/t", 7, 5)).as("each delivery not shown left out").isEqualTo(3);
        assertThat(counts.delivered("c/g/t", 7, 3)).as("never lower than shown before").isEqualTo(4);
        counts.notShown("c/g/t", 8);
        counts.finished("c/g/t", 8);
        assertThat(counts.delivered("c/g/t", 8, 2)).as("forgotten when finished").isEqualTo(2);
    }

    @Test
    void aRecordSeenFinishedIsDoneSoAStaleCopyOfItIsNotHandedOutAgain() {
        DeliveryCounts counts = new DeliveryCounts(2);
        counts.delivered("c/g/t", 5, 1);
        assertThat(counts.isDone("c/g/t", 5)).as("delivered, not finished").isFalse();
        counts.finished("c/g/t", 5);
        assertThat(counts.isDone("c/g/t", 5)).isTrue();
        assertThat(counts.isDone("c/g/other", 5)).as("another scope").isFalse();
        counts.finished("c/g/t", 6);
        counts.finished("c/g/t", 7);
        assertThat(counts.isDone("c/g/t", 5)).as("the oldest forgotten past the capacity").isFalse();
        assertThat(counts.isDone("c/g/t", 7)).isTrue();
    }
}
