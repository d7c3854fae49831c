package io.okapigw.core.bulkhead;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tenant's share of the node ({@code bulkhead.*} settings): how many of its clients' requests may
 * be in flight at once, and how many may start per second; past either a request is answered 429
 * with {@code Retry-After}. Both off by default (0): Okapi has no such limit, and a default that
 * refuses a busy but healthy installation's requests would be worse than none.
 *
 * @param maxInFlight each tenant's limit on its clients' requests in flight; 0: none
 * @param rate each tenant's limit on its clients' requests started per second (bursts of up to one
 *     second's worth); 0: none
 * @param tenantMaxInFlight per-tenant limits instead of {@code maxInFlight} (0: none for that
 *     tenant)
 * @param tenantRate per-tenant rates instead of {@code rate} (0: none for that tenant)
 * @param anonymousShare the percentage of a tenant's limits (in flight and rate) that its anonymous
 *     requests together may use: those its auth module granted to no user (default 25)
 */
public record BulkheadOptions(
    int maxInFlight,
    int rate,
    Map<String, Integer> tenantMaxInFlight,
    Map<String, Integer> tenantRate,
    int anonymousShare) {

  private static final int MOST = 1_000_000;
  private static final String PER_TENANT = "TENANT=N,...";
  private static final String PER_TENANT_RULE =
      "a list of tenant=N (N a whole number from 0 to " + MOST + "), separated by commas";

  public static final Setting<Integer> MAX_IN_FLIGHT =
      Setting.integer("bulkhead.max-in-flight", 0, 0, MOST)
          .about(
              "how many requests of one tenant's clients may be in flight on this node at once;"
                  + " past it 429 with `Retry-After: 1`; 0: no limit")
          .details(
              "Counts requests from clients; a module's call back through the gateway, carrying the"
                  + " key (a 144-bit secret) this node sent in `X-Okapi-Request-Id` with a request of"
                  + " the same tenant still in flight, is never refused (that would fail an"
                  + " operation half done); any other id counts as a client's. Per node: a cluster"
                  + " of n nodes behind a load balancer lets a tenant about n times as many.");

  public static final Setting<Integer> RATE =
      Setting.integer("bulkhead.rate", 0, 0, MOST)
          .about(
              "how many requests of one tenant's clients may start per second on this node"
                  + " (bursts up to one second's worth); past it 429 with `Retry-After`; 0: no"
                  + " limit");

  public static final Setting<String> TENANT_MAX_IN_FLIGHT =
      Setting.text("bulkhead.tenant-max-in-flight", null, PER_TENANT)
          .check(v -> parse(v) != null, PER_TENANT_RULE)
          .about(
              "per-tenant `bulkhead.max-in-flight`, e.g. `diku=200,import=20` (0: no limit for"
                  + " that tenant)");

  public static final Setting<String> TENANT_RATE =
      Setting.text("bulkhead.tenant-rate", null, PER_TENANT)
          .check(v -> parse(v) != null, PER_TENANT_RULE)
          .about("per-tenant `bulkhead.rate`, e.g. `import=50` (0: no limit for that tenant)");

  public static final int DEFAULT_ANONYMOUS_SHARE = 25;

  public static final Setting<Integer> ANONYMOUS_SHARE =
      Setting.integer("bulkhead.anonymous-share", DEFAULT_ANONYMOUS_SHARE, 1, 100)
          .about(
              "the percentage of each tenant's limits (in flight and rate) that its anonymous"
                  + " requests together may use: those its auth module granted to no user; past it"
                  + " 429 for them, the rest left to the tenant's users")
          .details(
              "A request is counted once its auth module has granted it (a refused one never is),"
                  + " so no client without a good token can make a tenant's users get 429: anonymous"
                  + " requests (a tokenless call of a public route such as a login) take at most"
                  + " this share, rounded up. A tenant without an auth filter has no anonymous"
                  + " share: it cannot tell its clients apart.");

  /** The {@code bulkhead.*} settings. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(MAX_IN_FLIGHT, RATE, TENANT_MAX_IN_FLIGHT, TENANT_RATE, ANONYMOUS_SHARE);

  public BulkheadOptions {
    MAX_IN_FLIGHT.check(maxInFlight);
    RATE.check(rate);
    ANONYMOUS_SHARE.check(anonymousShare);
    tenantMaxInFlight = Map.copyOf(tenantMaxInFlight);
    tenantRate = Map.copyOf(tenantRate);
    tenantMaxInFlight.values().forEach(MAX_IN_FLIGHT::check);
    tenantRate.values().forEach(RATE::check);
  }

  /**
   * @return no limits
   */
  public static BulkheadOptions defaults() {
    return new BulkheadOptions(0, 0, Map.of(), Map.of(), DEFAULT_ANONYMOUS_SHARE);
  }

  /**
   * Reads the {@code bulkhead.*} settings.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static BulkheadOptions from(Settings settings) {
    return new BulkheadOptions(
        settings.get(MAX_IN_FLIGHT),
        settings.get(RATE),
        parseOrEmpty(settings.get(TENANT_MAX_IN_FLIGHT)),
        parseOrEmpty(settings.get(TENANT_RATE)),
        settings.get(ANONYMOUS_SHARE));
  }

  /**
   * @return these options with another limit on requests in flight for every tenant
   */
  public BulkheadOptions withMaxInFlight(int limit) {
    return new BulkheadOptions(limit, rate, tenantMaxInFlight, tenantRate, anonymousShare);
  }

  /**
   * @return whether any tenant has a limit: without one, the bulkhead counts nothing
   */
  public boolean limits() {
    return maxInFlight > 0
        || rate > 0
        || tenantMaxInFlight.values().stream().anyMatch(v -> v > 0)
        || tenantRate.values().stream().anyMatch(v -> v > 0);
  }

  /**
   * @return the limit on {@code tenant}'s requests in flight; 0 for none
   */
  public int maxInFlightOf(String tenant) {
    return tenantMaxInFlight.getOrDefault(tenant, maxInFlight);
  }

  /**
   * @return {@code tenant}'s requests per second; 0 for no limit
   */
  public int rateOf(String tenant) {
    return tenantRate.getOrDefault(tenant, rate);
  }

  /**
   * @return the part of {@code limit} that a tenant's anonymous requests may use: its {@link
   *     #anonymousShare} rounded up, so at least 1 of a limit; 0 (no limit) stays 0
   */
  public int anonymousPartOf(int limit) {
    return (int) ((limit * (long) anonymousShare + 99) / 100);
  }

  private static Map<String, Integer> parseOrEmpty(String text) {
    return text == null ? Map.of() : parse(text);
  }

  /** {@code a=1,b=2} as a map; null if it is not such a list. */
  static Map<String, Integer> parse(String text) {
    Map<String, Integer> limits = new LinkedHashMap<>();
    for (String entry : text.split(",", -1)) {
      String[] parts = entry.trim().split("=", -1);
      if (parts.length != 2 || parts[0].isBlank() || !parts[1].trim().matches("[0-9]{1,7}")) {
        return null;
      }
      int limit = Integer.parseInt(parts[1].trim());
      if (limit > MOST || limits.put(parts[0].trim(), limit) != null) {
        return null;
      }
    }
    return limits;
  }
}
