package io.okapigw.core.bulkhead;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.core.bulkhead.TenantBulkhead.Permit;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One tenant's requests in flight, its rate and its figures; and the part of both that its
 * anonymous requests may use, checked first, so that an anonymous request refused there takes
 * nothing of what the tenant's users have.
 */
final class TenantShare {

  /** A limit on requests in flight and started per second, and what it refuses. */
  private static final class Limit {
    private final int maxInFlight;
    private final int rate;
    private final TokenBucket bucket;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Counter overInFlight;
    private final Counter overRate;

    Limit(int maxInFlight, int rate, long now, Counter overInFlight, Counter overRate) {
      this.maxInFlight = maxInFlight;
      this.rate = rate;
      this.bucket = rate == 0 ? null : new TokenBucket(rate, now);
      this.overInFlight = overInFlight;
      this.overRate = overRate;
    }

    /**
     * @return 0 if a place was taken, -1 past the in-flight limit, else the nanoseconds until the
     *     rate allows one
     */
    long take(long now) {
      int held = inFlight.incrementAndGet();
      if (maxInFlight > 0 && held > maxInFlight) {
        inFlight.decrementAndGet();
        overInFlight.increment();
        return -1;
      }
      long wait = bucket == null ? 0 : bucket.take(now);
      if (wait > 0) {
        inFlight.decrementAndGet();
        overRate.increment();
      }
      return wait;
    }

    void release() {
      inFlight.decrementAndGet();
    }
  }

  private final String tenant;
  private final Limit all;
  private final Limit anonymous;

  TenantShare(
      String tenant,
      int maxInFlight,
      int rate,
      BulkheadOptions options,
      long now,
      MeterRegistry registry) {
    this.tenant = tenant;
    this.all =
        new Limit(
            maxInFlight, rate, now, rejected(registry, "in-flight"), rejected(registry, "rate"));
    this.anonymous =
        new Limit(
            options.anonymousPartOf(maxInFlight),
            options.anonymousPartOf(rate),
            now,
            rejected(registry, "anonymous-in-flight"),
            rejected(registry, "anonymous-rate"));
    Gauge.builder("okapi.tenant.requests.in.flight", all.inFlight, AtomicInteger::get)
        .description("Requests of a tenant's clients in flight on this node")
        .tag("tenant", tenant)
        .register(registry);
  }

  private Counter rejected(MeterRegistry registry, String limit) {
    return Counter.builder("okapi.tenant.requests.rejected")
        .description("Requests of a tenant's clients refused 429 past its bulkhead limit")
        .tag("tenant", tenant)
        .tag("limit", limit)
        .register(registry);
  }

  /**
   * @param isAnonymous whether the request was granted to no user
   * @throws TooBusy past the tenant's limits, or an anonymous request past their share
   */
  Permit admit(long now, boolean isAnonymous) {
    if (isAnonymous) {
      refuseIfNot(anonymous.take(now), anonymous, true);
    }
    long wait = all.take(now);
    if (wait != 0 && isAnonymous) {
      anonymous.release();
    }
    refuseIfNot(wait, all, false);
    boolean[] released = {false};
    return () -> {
      if (!released[0]) {
        released[0] = true;
        all.release();
        if (isAnonymous) {
          anonymous.release();
        }
      }
    };
  }

  private void refuseIfNot(long wait, Limit limit, boolean ofAnonymous) {
    if (wait < 0) {
      throw TooBusy.inFlight(tenant, limit.maxInFlight, ofAnonymous);
    }
    if (wait > 0) {
      throw TooBusy.rate(tenant, limit.rate, TimeUnit.NANOSECONDS.toSeconds(wait) + 1, ofAnonymous);
    }
  }
}
