package io.okapigw.core.bulkhead;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Each tenant's share of the node, so that one tenant's flood leaves the others' latency where it
 * was: a request from a client is admitted only while its tenant has fewer requests in flight than
 * its limit and, with a rate, a token left in its bucket; else it is refused with {@link TooBusy}
 * (429, {@code Retry-After}) before its handler or any filter is called. A request is counted once
 * its tenant's auth module has granted it (before any auth filter for a tenant without one), so a
 * request the auth module refuses never takes a tenant's place, and a request granted to no user
 * (anonymous) takes it only within the tenant's anonymous share ({@code bulkhead.anonymous-share}):
 * no client without a good token can make a tenant's users get 429. A module's call back through
 * the gateway is not counted at all ({@link io.okapigw.core.callback.CallBacks} tells it apart):
 * refusing it would fail an operation half done. Per tenant, in {@code /_/metrics}: {@code
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
   * @param anonymous whether its auth module granted it to no user
   * @return what to release once the request is answered (or its connection gone)
   * @throws TooBusy past the tenant's limits, or an anonymous request past their share
   */
  public Permit admit(String tenant, boolean anonymous) {
    if (!limited) {
      return Permit.NONE;
    }
    return shares.computeIfAbsent(tenant, this::share).admit(nanoTime.getAsLong(), anonymous);
  }

  /**
   * @param tenant the request's tenant
   * @param callBack whether it is a module's call back, never counted
   * @return the request's place, taken once its auth decision is known
   */
  public Place place(String tenant, boolean callBack) {
    return new Place(limited && !callBack ? tenant : null);
  }

  private TenantShare share(String tenant) {
    return new TenantShare(
        tenant,
        options.maxInFlightOf(tenant),
        options.rateOf(tenant),
        options,
        nanoTime.getAsLong(),
        registry);
  }

  /**
   * A request's place among its tenant's: taken once the request's auth decision is known, given
   * back once it is answered. Confined to the request's event loop.
   */
  public final class Place {

    private final String tenant;
    private Permit permit = Permit.NONE;

    private Place(String tenant) {
      this.tenant = tenant;
    }

    /**
     * Takes the place; a second call takes nothing more.
     *
     * @param anonymous whether the request was granted to no user (false for a tenant without an
     *     auth filter, which cannot tell its clients apart)
     * @throws TooBusy past the tenant's limits, or an anonymous request past their share
     */
    public void take(boolean anonymous) {
      if (tenant != null && permit == Permit.NONE) {
        permit = admit(tenant, anonymous);
      }
    }

    /** Gives the place back, if one was taken. */
    public void release() {
      permit.release();
    }
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
