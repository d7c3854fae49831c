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

  @Test
  void sum_samplesWithTheLabelValueOnly_notAPrefixOrAnotherName() {
    String text =
        """
        okapi_module_stalls_total{instance="http://127.0.0.1:31550",module="mod-users-1"} 2.0
        okapi_module_stalls_total{module="mod-users-1",instance="http://127.0.0.1:31550"} 1.0
        okapi_module_stalls_total{instance="http://127.0.0.1:315500",module="mod-users-1"} 7.0
        okapi_module_stalls_totals{instance="http://127.0.0.1:31550"} 9.0
        """;

    assertThat(
            PrometheusText.sum(
                text, "okapi_module_stalls_total", "instance", "http://127.0.0.1:31550"))
        .isEqualTo(3.0);
    assertThat(PrometheusText.sum(text, "okapi_module_ejections_total", "instance", "x")).isZero();
  }
}
