package io.mikyu.bench.jms;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class VerificationTest {

    private static final long WINDOW_START = 0;
    private static final long WINDOW_END = Long.MAX_VALUE;

    private static void receive(Tally t, int producer, long... seqs) {
        for (long seq : seqs) {
            t.record(producer, seq, 1, false, 2, WINDOW_START, WINDOW_END);
        }
    }

    @Test
    void queueMessagesSplitAcrossConsumersExactlyOnceAreVerified() {
        Tally a = new Tally(2);
        Tally b = new Tally(2);
        receive(a, 0, 0, 2);
        receive(b, 0, 1);
        receive(a, 1, 0);
        receive(b, 1, 1, 2);

        Verification v = Verification.of(Case.Destination.QUEUE, new long[] {3, 3}, List.of(a, b));

        assertThat(v).isEqualTo(new Verification(0, 0, 0, 0));
        assertThat(v.ok()).isTrue();
    }

    @Test
    void queueMessageMissingIsLost() {
        Tally a = new Tally(1);
        receive(a, 0, 0, 2);

        Verification v = Verification.of(Case.Destination.QUEUE, new long[] {3}, List.of(a));

        assertThat(v.lost()).isEqualTo(1);
        assertThat(v.ok()).isFalse();
    }

    @Test
    void queueMessageAtTwoConsumersOrTwiceAtOneIsADuplicate() {
        Tally a = new Tally(1);
        Tally b = new Tally(1);
        receive(a, 0, 0, 1, 1);
        receive(b, 0, 0);

        Verification v = Verification.of(Case.Destination.QUEUE, new long[] {2}, List.of(a, b));

        assertThat(v.duplicates()).isEqualTo(2);
        assertThat(v.lost()).isZero();
        assertThat(v.ok()).isFalse();
    }

    @Test
    void messageNeverCommittedIsUnexpected() {
        Tally a = new Tally(1);
        receive(a, 0, 0, 1, 2);

        // the producer committed two: the third was rolled back or never committed, yet delivered
        Verification v = Verification.of(Case.Destination.QUEUE, new long[] {2}, List.of(a));

        assertThat(v.unexpected()).isEqualTo(1);
        assertThat(v.ok()).isFalse();
    }

    @Test
    void topicSubscriberMissingAMessageOthersHadIsLost() {
        Tally a = new Tally(1);
        Tally b = new Tally(1);
        receive(a, 0, 0, 1, 2);
        receive(b, 0, 0, 2);

        Verification v = Verification.of(Case.Destination.TOPIC, new long[] {3}, List.of(a, b));

        assertThat(v.lost()).isEqualTo(1);
        assertThat(v.duplicates()).isZero();
    }

    @Test
    void topicSubscribersEachWithEveryMessageAreVerified() {
        Tally a = new Tally(1);
        Tally b = new Tally(1);
        receive(a, 0, 0, 1);
        receive(b, 0, 0, 1);

        assertThat(Verification.of(Case.Destination.TOPIC, new long[] {2}, List.of(a, b)).ok()).isTrue();
    }

    @Test
    void foreignAndMalformedMessagesFailTheRun() {
        Tally a = new Tally(1);
        receive(a, 0, 0);
        a.foreign++;
        a.record(5, 0, 1, false, 2, WINDOW_START, WINDOW_END);

        Verification v = Verification.of(Case.Destination.QUEUE, new long[] {1}, List.of(a));

        assertThat(v.foreign()).isEqualTo(2);
        assertThat(v.ok()).isFalse();
    }

    @Test
    void latencyAndWindowCountsOnlyMessagesOfTheWindow() {
        Tally t = new Tally(1);
        t.record(0, 0, 5, false, 8, 10, 20);    // sent and received before the window
        t.record(0, 1, 12, false, 15, 10, 20);  // inside
        t.record(0, 2, 18, false, 25, 10, 20);  // sent inside, received after

        assertThat(t.latency.getTotalCount()).isEqualTo(2);
        assertThat(t.receivedInWindow).isEqualTo(1);
        assertThat(t.received.get()).isEqualTo(3);
    }
}
