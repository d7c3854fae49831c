package io.okapigw.core.proxy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code okapi_requests_seconds{tenant, method, status}}: proxied requests by tenant (only tenants
 * that exist; others count as {@code unknown}), standard method ({@code OTHER} for the rest) and
 * status class ({@code 2xx}). Never a user id, token or raw path.
 */
final class RequestMetrics {

  private static final Set<String> METHODS =
      Set.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");

  private final MeterRegistry registry;

  /** Timers by tags: a map lookup per request instead of Micrometer's registration path. */
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();

  RequestMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void record(String tenant, String method, int status, long startNanos) {
    String m = METHODS.contains(method) ? method : "OTHER";
    String statusClass = (status / 100) + "xx";
    timers
        .computeIfAbsent(
            tenant + ' ' + m + ' ' + statusClass,
            k ->
                Timer.builder("okapi.requests")
                    .description(
                        "Requests proxied by the gateway, from arrival to the last byte sent")
                    .tag("tenant", tenant)
                    .tag("method", m)
                    .tag("status", statusClass)
                    .register(registry))
        .record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
  }
}
