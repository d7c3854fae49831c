package io.okapigw.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import com.github.benmanes.caffeine.cache.stats.ConcurrentStatsCounter;
import com.github.benmanes.caffeine.cache.stats.StatsCounter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineStatsCounter;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Counts for {@link AuthCache#stats()} and publishes the same events to Micrometer under cache name
 * {@value #CACHE_NAME}. Local counters back {@code stats()}, so it stays exact whatever the
 * registry does with its meters (a composite registry with no members drops them).
 */
final class AuthCacheMetrics implements StatsCounter {

  static final String CACHE_NAME = "auth";

  private final MeterRegistry registry;
  private final ConcurrentStatsCounter local = new ConcurrentStatsCounter();
  private final CaffeineStatsCounter meters;
  private final LongAdder sizeEvictions = new LongAdder();
  private final LongAdder staleServed = new LongAdder();
  private final Counter staleServedMeter;

  AuthCacheMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.meters = new CaffeineStatsCounter(registry, CACHE_NAME);
    this.staleServedMeter =
        Counter.builder("cache.stale.served")
            .description("Answers served past their TTL because the auth module failed")
            .tag("cache", CACHE_NAME)
            .register(registry);
  }

  @Override
  public void recordHits(int count) {
    local.recordHits(count);
    meters.recordHits(count);
  }

  @Override
  public void recordMisses(int count) {
    local.recordMisses(count);
    meters.recordMisses(count);
  }

  @Override
  public void recordLoadSuccess(long loadTime) {
    local.recordLoadSuccess(loadTime);
    meters.recordLoadSuccess(loadTime);
  }

  @Override
  public void recordLoadFailure(long loadTime) {
    local.recordLoadFailure(loadTime);
    meters.recordLoadFailure(loadTime);
  }

  @Override
  public void recordEviction(int weight, RemovalCause cause) {
    local.recordEviction(weight, cause);
    meters.recordEviction(weight, cause);
    if (cause == RemovalCause.SIZE) {
      sizeEvictions.increment();
    }
  }

  @Override
  public CacheStats snapshot() {
    return local.snapshot();
  }

  /** Registers {@code cache.size} (entries) and {@code cache.bytes} (their estimated weight). */
  void registerSize(Cache<?, ?> cache, LongSupplier bytes) {
    meters.registerSizeMetric(cache);
    Gauge.builder("cache.bytes", bytes::getAsLong)
        .description(
            "Estimated heap bytes of the cached decisions (auth.cache.max-bytes bounds it)")
        .baseUnit("bytes")
        .tag("cache", CACHE_NAME)
        .register(registry);
  }

  void recordStaleServed() {
    staleServed.increment();
    staleServedMeter.increment();
  }

  void recordInvalidation(String scope) {
    Counter.builder("cache.invalidations")
        .description("Invalidation requests, by scope")
        .tag("cache", CACHE_NAME)
        .tag("scope", scope)
        .register(registry)
        .increment();
  }

  AuthCacheStats stats(long size, long bytes) {
    CacheStats s = local.snapshot();
    long requests = s.requestCount();
    double hitRatio = requests == 0 ? 0.0 : (double) s.hitCount() / requests;
    return new AuthCacheStats(
        size,
        bytes,
        s.hitCount(),
        s.missCount(),
        hitRatio,
        s.loadCount(),
        s.loadFailureCount(),
        sizeEvictions.sum(),
        staleServed.sum());
  }
}
