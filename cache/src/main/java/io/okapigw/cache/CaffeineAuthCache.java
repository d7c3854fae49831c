package io.okapigw.cache;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Weigher;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * The auth cache on a Caffeine {@link AsyncCache} of {@link CachedDecision} futures.
 *
 * <p>A lookup takes one of three paths. A fresh completed entry is a hit, answered without touching
 * Caffeine's loading machinery. No entry, or a load in flight, goes through {@link AsyncCache#get},
 * so concurrent misses share one load; whoever waited on a load gets its answer as is. An entry
 * past its TTL but inside the stale-if-error window is revalidated: the caller swaps it atomically
 * for a new in-flight future (others join that one), calls the loader, and falls back to the old
 * decision only if the loader fails.
 *
 * <p>Invalidation moves the generation on ({@link Generations}), then scans the map and removes
 * matching entries, loads in flight included, and marks the completed ones it keeps. A load records
 * the generation when it starts; a completed load whose generation is no longer current is given
 * zero lifetime by {@link DecisionExpiry} and removed by its starter once stored, so it cannot
 * re-populate the cache with pre-invalidation permissions. A lookup takes only a decision checked
 * by every invalidation that had returned when it started ({@link Generations#servable}): not one
 * of a load it joined that was in flight during an invalidation, nor one the scan did not see.
 */
final class CaffeineAuthCache implements AuthCache {

  /** At most this many distinct shared strings held once ({@link Names}). */
  private static final int NAMES = 100_000;

  private final AuthCacheOptions options;
  private final TimeSource time;
  private final AuthCacheMetrics metrics;
  private final DecisionLifetime lifetime;
  private final Generations generations = new Generations();
  private final Revocations revocations;
  private final Names names = new Names(NAMES);
  private final AsyncCache<StoredKey, CachedDecision> cache;
  private final ConcurrentMap<StoredKey, CompletableFuture<CachedDecision>> map;

  CaffeineAuthCache(AuthCacheOptions options, TimeSource time, AuthCacheMetrics metrics) {
    this.options = options;
    this.time = time;
    this.metrics = metrics;
    this.lifetime = new DecisionLifetime(options, time);
    this.revocations = new Revocations(time, lifetime.longest());
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(options.maxBytes())
            .weigher(weigher(options, names))
            .expireAfter(new DecisionExpiry(generations::current))
            .ticker(time.ticker())
            .recordStats(() -> metrics)
            .buildAsync();
    this.map = cache.asMap();
    metrics.registerSize(cache.synchronous(), this::weightedSize);
  }

  /**
   * Entries weigh their estimated bytes ({@link EntryWeight}), at least {@code maxBytes / maxSize}:
   * the byte bound then also bounds the count. A load in flight weighs nothing until it completes.
   */
  private static Weigher<StoredKey, CachedDecision> weigher(AuthCacheOptions options, Names names) {
    EntryWeight weight =
        new EntryWeight(Math.max(1, options.maxBytes() / options.maxSize()), names);
    return weight::of;
  }

  @Override
  public CompletableFuture<AuthDecision> get(
      AuthCacheKey key, Function<AuthCacheKey, CompletableFuture<AuthDecision>> loader) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(loader, "loader");
    long settled = generations.settled(); // first: what this lookup must not see past
    StoredKey stored = StoredKey.of(key, names);
    CompletableFuture<CachedDecision> current = map.get(stored); // records no stats
    CachedDecision entry = current == null ? null : valueOf(current);
    if (entry == null) {
      return lookup(key, stored, loader, settled);
    }
    if (!servable(key, entry, settled)) {
      map.remove(stored, current);
      return lookup(key, stored, loader, settled);
    }
    if (entry.isFresh(time.nanoTime())) {
      metrics.recordHits(1);
      return CompletableFuture.completedFuture(
          CompactDecision.expand(entry.decision(), key.token()));
    }
    return revalidate(key, stored, current, entry, loader, settled);
  }

  @Override
  public Optional<AuthDecision> peek(AuthCacheKey key) {
    Objects.requireNonNull(key, "key");
    long settled = generations.settled();
    CompletableFuture<CachedDecision> current =
        map.get(StoredKey.of(key, names)); // records no stats
    CachedDecision entry = current == null ? null : valueOf(current);
    if (entry == null
        || !Generations.servable(entry, settled)
        || !entry.isFresh(time.nanoTime())
        || entry.decision().stale()) {
      return Optional.empty();
    }
    return Optional.of(CompactDecision.expand(entry.decision(), key.token()));
  }

  /**
   * Joins the load in flight or starts one. A future that completed between {@code map.get} and
   * here is served as is, if servable: it holds an answer produced a moment ago. One that is not (a
   * load from before an invalidation or revocation that returned since) is dropped and the lookup
   * made again; a load this lookup starts itself is served to it whatever happened meanwhile, as to
   * any lookup that ran while an invalidation ran, so that ends.
   */
  private CompletableFuture<AuthDecision> lookup(
      AuthCacheKey key,
      StoredKey stored,
      Function<AuthCacheKey, CompletableFuture<AuthDecision>> loader,
      long settled) {
    boolean[] started = {false};
    CompletableFuture<CachedDecision> future =
        cache.get(
            stored,
            (k, executor) -> {
              started[0] = true;
              return load(key, stored, loader, generations.current());
            });
    if (started[0]) {
      dropUnlessKept(key, stored, future);
    }
    boolean own = started[0];
    return future.thenCompose(
        entry -> {
          if (own || servable(key, entry, settled)) {
            return CompletableFuture.completedFuture(answer(entry, key));
          }
          map.remove(stored, future);
          return lookup(key, stored, loader, settled);
        });
  }

  private CompletableFuture<AuthDecision> revalidate(
      AuthCacheKey key,
      StoredKey stored,
      CompletableFuture<CachedDecision> current,
      CachedDecision stale,
      Function<AuthCacheKey, CompletableFuture<AuthDecision>> loader,
      long settled) {
    CompletableFuture<CachedDecision> refresh = new CompletableFuture<>();
    if (!map.replace(stored, current, refresh)) {
      // another caller is revalidating, or the entry is gone
      return lookup(key, stored, loader, settled);
    }
    metrics.recordMisses(1);
    long loadGeneration = generations.current();
    load(key, stored, loader, loadGeneration)
        .whenComplete(
            (fresh, error) -> {
              if (error == null) {
                refresh.complete(fresh);
              } else if (canServeStale(key, stale, loadGeneration)) {
                refresh.complete(stale.asStale(loadGeneration));
              } else {
                refresh.completeExceptionally(error);
              }
            });
    dropUnlessKept(key, stored, refresh);
    return refresh.thenApply(entry -> answer(entry, key));
  }

  /** The auth call; its answer held compact ({@link CompactDecision}). */
  private CompletableFuture<CachedDecision> load(
      AuthCacheKey key,
      StoredKey stored,
      Function<AuthCacheKey, CompletableFuture<AuthDecision>> loader,
      long loadGeneration) {
    long loadSequence = revocations.nextLoad();
    long started = time.nanoTime();
    return SafeLoader.call(loader, key)
        .thenApply(
            decision ->
                lifetime.entry(
                    key,
                    decision,
                    started,
                    loadGeneration,
                    loadSequence,
                    revocations.settling(key)))
        .thenApply(
            entry ->
                entry.holding(
                    CompactDecision.compact(entry.decision(), key.token(), stored, names)));
  }

  /**
   * @return whether a lookup that started at {@code settled} may take {@code entry}: checked by
   *     every invalidation that had returned, loaded after every revocation of its user or session
   */
  private boolean servable(AuthCacheKey key, CachedDecision entry, long settled) {
    return Generations.servable(entry, settled) && revocations.allows(key, entry);
  }

  /**
   * Stale only inside the retain window (bounded by token exp) and if nothing was invalidated or
   * revoked.
   */
  private boolean canServeStale(AuthCacheKey key, CachedDecision stale, long loadGeneration) {
    return generations.current() == loadGeneration
        && revocations.allows(key, stale)
        && stale.isRetained(time.nanoTime());
  }

  /**
   * Removes an uncacheable or invalidated answer once stored. Runs after Caffeine inserted the
   * future, so it also catches an invalidation that scanned the map before the insert.
   */
  private void dropUnlessKept(
      AuthCacheKey key, StoredKey stored, CompletableFuture<CachedDecision> future) {
    future.thenAccept(
        entry -> {
          if (entry.generation() != generations.current()
              || !entry.isRetained(time.nanoTime())
              || !revocations.allows(key, entry)) {
            map.remove(stored, future);
          }
        });
  }

  private AuthDecision answer(CachedDecision entry, AuthCacheKey key) {
    if (entry.decision().stale()) {
      metrics.recordStaleServed();
    }
    return CompactDecision.expand(entry.decision(), key.token());
  }

  @Override
  public long invalidateAll() {
    return invalidate(Invalidation.all());
  }

  @Override
  public long invalidateTenant(String tenant) {
    return invalidate(Invalidation.tenant(tenant));
  }

  @Override
  public long invalidateUser(String tenant, String userId) {
    return invalidate(Invalidation.user(tenant, userId));
  }

  @Override
  public long invalidateToken(String token) {
    return invalidate(Invalidation.token(token));
  }

  @Override
  public void revokeUser(String tenant, String userId, Duration settle) {
    requireNotEmpty(userId, "userId");
    metrics.recordInvalidation("revoke-user");
    revocations.revokeUser(tenant, userId, settle.toNanos());
  }

  @Override
  public void revokeSession(String tenant, String session, Duration settle) {
    requireNotEmpty(session, "session");
    metrics.recordInvalidation("revoke-session");
    revocations.revokeSession(tenant, session, settle.toNanos());
  }

  private static void requireNotEmpty(String value, String name) {
    if (Objects.requireNonNull(value, name).isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
  }

  /**
   * Scans all entries, O(n). Chosen over secondary indexes (tenant, user, token to keys) because an
   * index that misses a key leaves stale permissions in the cache, and keeping one exact under
   * concurrent loads, replacements and evictions is where such bugs live. Invalidations are rare;
   * the scan is 20 to 40 ms per 100,000 entries on two shared cores.
   */
  private long invalidate(Invalidation invalidation) {
    metrics.recordInvalidation(invalidation.scope());
    return generations.invalidate(generation -> scan(invalidation, generation));
  }

  private long scan(Invalidation invalidation, long generation) {
    long removed = 0;
    for (Map.Entry<StoredKey, CompletableFuture<CachedDecision>> e : map.entrySet()) {
      CachedDecision entry = valueOf(e.getValue());
      AuthDecision decision = entry == null ? null : entry.decision();
      if (!invalidation.matches(e.getKey(), decision)) {
        if (entry != null) {
          entry.kept(generation);
        }
      } else if (map.remove(e.getKey(), e.getValue()) && entry != null) {
        removed++;
      }
    }
    return removed;
  }

  @Override
  public AuthCacheStats stats() {
    cache.synchronous().cleanUp();
    return metrics.stats(cache.synchronous().estimatedSize(), weightedSize());
  }

  private long weightedSize() {
    return cache.synchronous().policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
  }

  @Override
  public AuthCacheOptions options() {
    return options;
  }

  /**
   * @return the entry of a successfully completed future, else null (in flight or failed)
   */
  private static CachedDecision valueOf(CompletableFuture<CachedDecision> future) {
    return future.isDone() && !future.isCompletedExceptionally() ? future.join() : null;
  }
}
