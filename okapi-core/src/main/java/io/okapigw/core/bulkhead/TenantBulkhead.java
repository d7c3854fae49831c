package io.okapigw.core.bulkhead;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Each tenant's share of the node, so that one tenant's flood leaves the others' latency where it
 * was: a request from a client is admitted only while its tenant has fewer requests in flight than
 * its limit and, with a rate, a token left in its bucket; else it is refused with {@link TooBusy}
 * (429, {@code Retry-After}) before any module is called. A module's call back through the gateway
 * is not admitted here at all ({@link io.okapigw.core.callback.CallBacks} tells it apart): refusing
 * it would fail an operation half done. Per tenant, in {@code /_/metrics}: {@code
 * okapi_tenant_requests_in_flight} and {@code okapi_tenant_requests_rejected_total{limit}}.
 * Thread-safe; a tenant costs one map lookup and one atomic update per request.
 */
public final class TenantBulkhead {

  private final BulkheadOptions options;
  private final MeterRegistry registry;
  private final LongSupplier nanoTime;
  private final Map<String, TenantShare> shares = new ConcurrentHashMap<>();
  private final boolean limited;

  private TenantBulkhead(BulkheadOptions options, MeterRegistry registry, LongSupplier nanoTime) {
    this.options = options;
    this.registry = registry;
    this.nanoTime = nanoTime;
    this.limited = options.limits();
  }

  /**
   * @param options the limits
   * @param registry where the per-tenant figures go
   * @param nanoTime the clock of the rate limit ({@code System::nanoTime}; tests advance a fake)
   * @return the node's bulkhead
   */
  public static TenantBulkhead create(
      BulkheadOptions options, MeterRegistry registry, LongSupplier nanoTime) {
    return new TenantBulkhead(options, registry, nanoTime);
  }

  /**
   * Admits a client's request of {@code tenant}.
   *
   * @param tenant a tenant of the registry (the tag of its figures: never an unchecked name)
   * @return what to release once the request is answered (or its connection gone)
   * @throws TooBusy past the tenant's limits
   */
  public Permit admit(String tenant) {
    if (!limited) {
      return Permit.NONE;
    }
    return shares.computeIfAbsent(tenant, this::share).admit(nanoTime.getAsLong());
  }

  private TenantShare share(String tenant) {
    return new TenantShare(
        tenant,
        options.maxInFlightOf(tenant),
        options.rateOf(tenant),
        nanoTime.getAsLong(),
        registry);
  }

  /** A request's place among its tenant's requests in flight. */
  @FunctionalInterface
  public interface Permit {

    /** Nothing to release: the request was not counted. */
    Permit NONE = () -> {};

    /** Gives the place back; only the first call counts. */
    void release();
  }
}
