package io.okapigw.cache;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The auth cache turned off: every lookup calls the loader, nothing is stored, nothing is shared.
 * Lookups and loads are still counted, so dashboards show the auth traffic.
 */
final class DisabledAuthCache implements AuthCache {

  private final AuthCacheOptions options;
  private final TimeSource time;
  private final AuthCacheMetrics metrics;

  DisabledAuthCache(AuthCacheOptions options, TimeSource time, AuthCacheMetrics metrics) {
    this.options = options;
    this.time = time;
    this.metrics = metrics;
  }

  @Override
  public CompletableFuture<AuthDecision> get(
      AuthCacheKey key, Function<AuthCacheKey, CompletableFuture<AuthDecision>> loader) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(loader, "loader");
    metrics.recordMisses(1);
    long start = time.nanoTime();
    return SafeLoader.call(loader, key)
        .whenComplete(
            (decision, error) -> {
              long loadTime = Math.max(0L, time.nanoTime() - start);
              if (error == null) {
                metrics.recordLoadSuccess(loadTime);
              } else {
                metrics.recordLoadFailure(loadTime);
              }
            });
  }

  @Override
  public Optional<AuthDecision> peek(AuthCacheKey key) {
    Objects.requireNonNull(key, "key");
    return Optional.empty();
  }

  @Override
  public long invalidateAll() {
    return 0;
  }

  @Override
  public long invalidateTenant(String tenant) {
    Invalidation.tenant(tenant); // same argument checks as the real cache
    return 0;
  }

  @Override
  public long invalidateUser(String tenant, String userId) {
    Invalidation.user(tenant, userId);
    return 0;
  }

  @Override
  public long invalidateToken(String token) {
    Invalidation.token(token);
    return 0;
  }

  @Override
  public void revokeUser(String tenant, String userId, Duration settle) {
    Invalidation.user(tenant, userId);
    requireSettle(settle);
  }

  @Override
  public void revokeSession(String tenant, String session, Duration settle) {
    Invalidation.user(tenant, session);
    requireSettle(settle);
  }

  private static void requireSettle(Duration settle) {
    if (settle.isNegative()) {
      throw new IllegalArgumentException("settle must not be negative");
    }
  }

  @Override
  public AuthCacheStats stats() {
    return metrics.stats(0, 0);
  }

  @Override
  public AuthCacheOptions options() {
    return options;
  }
}
