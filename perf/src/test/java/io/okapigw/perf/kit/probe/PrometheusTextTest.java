package io.okapigw.perf.kit.probe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {

  private static final String METRICS =
      """
      # TYPE jvm_memory_used_bytes gauge
      jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1.048576E7
      jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 2.097152E7
      jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 5.0E7
      # TYPE process_cpu_time_ns_total counter
      process_cpu_time_ns_total 1.23E10
      """;

  @Test
  void heapUsed_sumsTheHeapPoolsOnly() {
    assertThat(PrometheusText.heapUsed(METRICS)).isEqualTo(31_457_280L);
  }

  @Test
  void cpuNanos_readsTheProcessCounter() {
    assertThat(PrometheusText.cpuNanos(METRICS)).isEqualTo(12_300_000_000L);
  }

  @Test
  void neither_inAnotherText_isMinusOne() {
    assertThat(PrometheusText.heapUsed("# nothing\n")).isEqualTo(-1);
    assertThat(PrometheusText.cpuNanos("# nothing\n")).isEqualTo(-1);
  }
}
