package io.okapigw.core.auth;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.cache.AuthDecision;
import io.vertx.core.AsyncResult;

/**
 * {@code okapi_auth_calls_total{tenant, outcome}}: calls actually made to auth modules. Outcome is
 * {@code granted}, {@code denied} (401/403), {@code error} (any other answer) or {@code
 * unreachable}. Tags are bounded: tenants exist in the registry before a call is made.
 */
final class AuthCallMetrics {

  private final MeterRegistry registry;

  AuthCallMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Counts the call, unless it was not made (its auth module's breaker was open). */
  void record(String tenant, AsyncResult<AuthDecision> result) {
    if (result.failed() && result.cause() instanceof AuthBreakers.Open) {
      return;
    }
    Counter.builder("okapi.auth.calls")
        .description("Calls made to auth modules (cache misses and uncached requests)")
        .tag("tenant", tenant)
        .tag("outcome", outcome(result))
        .register(registry)
        .increment();
  }

  private static String outcome(AsyncResult<AuthDecision> result) {
    if (result.failed()) {
      return "unreachable";
    }
    AuthDecision d = result.result();
    return d.isGrant() ? "granted" : d.isDenial() ? "denied" : "error";
  }
}
