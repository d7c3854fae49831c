package io.okapigw.core.proxy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code okapi_requests_seconds{tenant, method, status}}: proxied requests by tenant (only tenants
 * that exist; others count as {@code unknown}), standard method ({@code OTHER} for the rest) and
 * status class ({@code 2xx}). Never a user id, token or raw path.
 */
final class RequestMetrics {

  private static final List<String> METHODS =
      List.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "OTHER");
  private static final int CLASSES = 10;

  private final MeterRegistry registry;

  /**
   * A tenant's timers by method and status class, registered on first use: one map lookup per
   * request, no key built, instead of Micrometer's registration path.
   */
  private final Map<String, Timer[]> timers = new ConcurrentHashMap<>();

  RequestMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void record(String tenant, String method, int status, long startNanos) {
    int m = methodIndex(method);
    int statusClass = Math.min(Math.max(status / 100, 0), CLASSES - 1);
    Timer[] ofTenant = timers.computeIfAbsent(tenant, t -> new Timer[METHODS.size() * CLASSES]);
    int slot = m * CLASSES + statusClass;
    Timer timer = ofTenant[slot];
    if (timer == null) {
      // a race registers the same meter twice: Micrometer hands back the one it has
      timer = register(tenant, METHODS.get(m), statusClass + "xx");
      ofTenant[slot] = timer;
    }
    timer.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
  }

  private Timer register(String tenant, String method, String statusClass) {
    return Timer.builder("okapi.requests")
        .description("Requests proxied by the gateway, from arrival to the last byte sent")
        .tag("tenant", tenant)
        .tag("method", method)
        .tag("status", statusClass)
        .register(registry);
  }

  private static int methodIndex(String method) {
    int i = METHODS.indexOf(method);
    return i < 0 ? METHODS.size() - 1 : i;
  }
}
