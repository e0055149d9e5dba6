package io.mikyu.cli.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusTextTest {

    private static final String SCRAPE = """
            # HELP jvm_memory_used_bytes The amount of used memory
            # TYPE jvm_memory_used_bytes gauge
            jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1000.0
            jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 24.0
            jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 5000.0
            process_files_open_files 42.0
            process_files_open_files_max 1.0
            process_cpu_time_ns_total 1.5E9
            """;

    @Test
    void sumsTheSamplesOfOneMetricWhoseLabelsMatch() {
        assertThat(PrometheusText.sum(SCRAPE, "jvm_memory_used_bytes", "area=\"heap\"")).isEqualTo(1024.0);
        assertThat(PrometheusText.sum(SCRAPE, "jvm_memory_used_bytes")).isEqualTo(6024.0);
        assertThat(PrometheusText.sum(SCRAPE, "process_files_open_files")).as("not the _max one").isEqualTo(42.0);
        assertThat(PrometheusText.sum(SCRAPE, "process_cpu_time_ns_total")).isEqualTo(1.5e9);
        assertThat(PrometheusText.sum(SCRAPE, "absent")).isEqualTo(-1);
    }
}
