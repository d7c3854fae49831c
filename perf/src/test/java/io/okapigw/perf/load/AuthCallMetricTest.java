package io.okapigw.perf.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reading {@code okapi_auth_calls_total} and the process CPU time from Prometheus text. */
class AuthCallMetricTest {

  private static final String TEXT =
      """
      # HELP okapi_auth_calls_total Calls made to auth modules
      # TYPE okapi_auth_calls_total counter
      okapi_auth_calls_total{outcome="granted",tenant="diku"} 33.0
      okapi_auth_calls_total{outcome="denied",tenant="diku"} 2.0
      okapi_auth_calls_total{tenant="diku2",outcome="granted"} 100.0
      okapi_auth_calls_other{outcome="granted",tenant="diku"} 7.0
      # TYPE process_cpu_time_ns_total counter
      process_cpu_time_ns_total 1.23E10
      """;

  @Test
  void sum_addsEveryOutcomeOfTheTenantOnly() {
    assertThat(AuthCallMetric.sum(TEXT, "diku")).isEqualTo(35.0);
    assertThat(AuthCallMetric.sum(TEXT, "diku2")).isEqualTo(100.0);
  }

  @Test
  void sum_noSamples_isZero() {
    assertThat(AuthCallMetric.sum("# nothing\n", "diku")).isZero();
  }
}
