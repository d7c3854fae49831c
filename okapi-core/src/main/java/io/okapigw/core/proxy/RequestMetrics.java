package io.okapigw.core.proxy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code okapi_requests_seconds{tenant, method, status}}: proxied requests by tenant (only tenants
 * that exist; others count as {@code unknown}), standard method ({@code OTHER} for the rest) and
 * status class ({@code 2xx}). Never a user id, token or raw path.
 */
final class RequestMetrics {

  private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "DELETE", "PATCH",
      "HEAD", "OPTIONS");

  private final MeterRegistry registry;

  RequestMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void record(String tenant, String method, int status, long startNanos) {
    Timer.builder("okapi.requests")
        .description("Requests proxied by the gateway, from arrival to the last byte sent")
        .tag("tenant", tenant)
        .tag("method", METHODS.contains(method) ? method : "OTHER")
        .tag("status", (status / 100) + "xx")
        .register(registry)
        .record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
  }
}
