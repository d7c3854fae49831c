package io.okapigw.core.bulkhead;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.core.bulkhead.TenantBulkhead.Permit;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** One tenant's requests in flight, its rate and its figures. */
final class TenantShare {

  private final String tenant;
  private final int maxInFlight;
  private final int rate;
  private final TokenBucket bucket;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Counter overInFlight;
  private final Counter overRate;

  TenantShare(String tenant, int maxInFlight, int rate, long now, MeterRegistry registry) {
    this.tenant = tenant;
    this.maxInFlight = maxInFlight;
    this.rate = rate;
    this.bucket = rate == 0 ? null : new TokenBucket(rate, now);
    Gauge.builder("okapi.tenant.requests.in.flight", inFlight, AtomicInteger::get)
        .description("Requests of a tenant's clients in flight on this node")
        .tag("tenant", tenant)
        .register(registry);
    this.overInFlight = rejected(registry, "in-flight");
    this.overRate = rejected(registry, "rate");
  }

  private Counter rejected(MeterRegistry registry, String limit) {
    return Counter.builder("okapi.tenant.requests.rejected")
        .description("Requests of a tenant's clients refused 429 past its bulkhead limit")
        .tag("tenant", tenant)
        .tag("limit", limit)
        .register(registry);
  }

  Permit admit(long now) {
    int held = inFlight.incrementAndGet();
    if (maxInFlight > 0 && held > maxInFlight) {
      inFlight.decrementAndGet();
      overInFlight.increment();
      throw TooBusy.inFlight(tenant, maxInFlight);
    }
    long wait = bucket == null ? 0 : bucket.take(now);
    if (wait > 0) {
      inFlight.decrementAndGet();
      overRate.increment();
      throw TooBusy.rate(tenant, rate, TimeUnit.NANOSECONDS.toSeconds(wait) + 1);
    }
    boolean[] released = {false};
    return () -> {
      if (!released[0]) {
        released[0] = true;
        inFlight.decrementAndGet();
      }
    };
  }
}
