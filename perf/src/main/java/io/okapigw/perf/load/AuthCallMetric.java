package io.okapigw.perf.load;

import io.okapigw.perf.kit.probe.PrometheusText;

/**
 * Reads the gateway's count of real auth calls, {@code okapi_auth_calls_total{outcome,tenant}},
 * from Prometheus text: the sum over all outcomes of one tenant (0 when the tenant has made none,
 * e.g. without an auth module).
 */
final class AuthCallMetric {

  static final String NAME = "okapi_auth_calls_total";

  private AuthCallMetric() {}

  /**
   * @throws NumberFormatException if a sample's value is not a number
   */
  static double sum(String prometheusText, String tenant) {
    return PrometheusText.sum(prometheusText, NAME, "tenant", tenant);
  }
}
