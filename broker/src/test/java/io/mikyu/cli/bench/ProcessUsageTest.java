package io.mikyu.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessUsageTest {

    @Test
    void countsTheCpuTimeOfWorkDoneBetweenTwoSnapshots() {
        ProcessUsage.Snapshot start = ProcessUsage.snapshot();
        long spinUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        long sum = 0;
        while (System.nanoTime() < spinUntil) {
            sum += Long.numberOfTrailingZeros(System.nanoTime());
        }
        ProcessUsage usage = start.until(ProcessUsage.snapshot());

        assertThat(sum).isNotNegative();
        assertThat(usage.wallSeconds()).isGreaterThanOrEqualTo(0.2);
        // On a loaded machine this thread may get less than a core; some CPU time it gets in any case.
        assertThat(usage.cpuSeconds()).isPositive();
        assertThat(usage.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(usage.utilisation()).isEqualTo(usage.coresUsed() / usage.cores());
        if (usage.userSeconds() >= 0) {
            assertThat(usage.userSeconds() + usage.systemSeconds()).isCloseTo(usage.cpuSeconds(),
                    org.assertj.core.data.Offset.offset(1e-9));
        }
    }

    @Test
    void countsACollectionAsAPause() {
        ProcessUsage.Snapshot start = ProcessUsage.snapshot();
        System.gc();
        ProcessUsage usage = start.until(ProcessUsage.snapshot());

        assertThat(usage.gcPauses()).isPositive();
        assertThat(usage.gcPauseSeconds()).isNotNegative();
        assertThat(usage.describe()).contains("GC " + usage.gcPauses() + " pauses");
        assertThat(usage.addTo(new JsonObject()).toString()).contains("\"gc_pauses\":" + usage.gcPauses());
    }
}
