package io.okapigw.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A local cache of auth-filter decisions, so that steady-state traffic skips the auth module.
 *
 * <p>What is cached: 2xx answers for the TTL; 401/403 answers only with a negative TTL; never
 * failures or other statuses. An entry lives at most until the earliest {@code exp} of the request
 * token and the module tokens in the answer, and is never served after it. Concurrent misses on one
 * key make one auth call.
 *
 * <p>Time: entries expire on the {@link Ticker} (monotonic, nanoseconds); token {@code exp} claims
 * are wall-clock seconds, read against the {@link Clock}. Tests pass a fake of both that advance
 * together.
 *
 * <p>Invalidation removes matching entries and also keeps every load that was in flight when it ran
 * from populating the cache (its callers still get the answer): such a load may carry permissions
 * from before the change. A lookup that starts after an invalidation returned never gets a decision
 * whose load started before it, not even by joining that load. Invalidations are rare, so the few
 * loads re-done are cheap. Each invalidation scans all entries, O(n): measured 20 to 40 ms for
 * 100,000 entries on two shared cores. It blocks the caller, so call it from a worker thread, never
 * an event loop. A user's or a session's decisions are revoked without a scan ({@link #revokeUser},
 * {@link #revokeSession}), in constant time, from any thread.
 *
 * <p>Metrics go to the given registry under cache name {@code auth}: Caffeine's {@code cache.gets},
 * {@code cache.loads}, {@code cache.evictions}, {@code cache.size}, plus {@code cache.stale.served}
 * and {@code cache.invalidations} (tag {@code scope}). Tags are bounded: no user id, token or path.
 * Use one cache per registry.
 *
 * <p>Implementations are thread-safe.
 */
public interface AuthCache {

  /**
   * Creates a cache on the system ticker and UTC clock.
   *
   * @param options the settings
   * @param registry where metrics are registered
   * @return a cache; one that caches nothing if {@code options} turn it off
   * @throws NullPointerException if an argument is null
   */
  static AuthCache create(AuthCacheOptions options, MeterRegistry registry) {
    return create(options, Ticker.systemTicker(), Clock.systemUTC(), registry);
  }

  /**
   * Creates a cache whose wall clock is derived from {@code ticker}: it reads the system clock
   * once, then advances with the ticker. With a fake ticker, one knob moves both.
   *
   * @param options the settings
   * @param ticker nanosecond time source for expiry
   * @param registry where metrics are registered
   * @return a cache; one that caches nothing if {@code options} turn it off
   * @throws NullPointerException if an argument is null
   */
  static AuthCache create(AuthCacheOptions options, Ticker ticker, MeterRegistry registry) {
    return create(options, ticker, new TickerClock(ticker, Clock.systemUTC()), registry);
  }

  /**
   * Creates a cache on the given time sources.
   *
   * @param options the settings
   * @param ticker nanosecond time source for expiry, like {@link System#nanoTime()}
   * @param clock wall clock that token {@code exp} claims are compared with
   * @param registry where metrics are registered
   * @return a cache; one that caches nothing if {@code options} turn it off
   * @throws NullPointerException if an argument is null
   */
  static AuthCache create(
      AuthCacheOptions options, Ticker ticker, Clock clock, MeterRegistry registry) {
    Objects.requireNonNull(options, "options");
    TimeSource time = new TimeSource(ticker, clock);
    AuthCacheMetrics metrics = new AuthCacheMetrics(registry);
    return options.enabled()
        ? new CaffeineAuthCache(options, time, metrics)
        : new DisabledAuthCache(options, time, metrics);
  }

  /**
   * Returns the decision for {@code key}: from the cache if fresh, else from {@code loader}, whose
   * answer is then cached if cacheable. Concurrent calls for a key that is not cached share one
   * loader call. The loader runs on the calling thread; it should start the auth call and return
   * without blocking.
   *
   * <p>With stale-if-error on, a decision past its TTL is revalidated with the loader; if the
   * loader fails with an exception, the old decision is returned flagged {@link
   * AuthDecision#stale()} (within the stale window and before token expiry), otherwise the loader's
   * answer.
   *
   * @param key what the decision depends on, not null
   * @param loader calls the auth module; its future fails if the module could not be asked
   * @return the decision, or a future failed with the loader's exception. A loader that throws or
   *     returns null yields a failed future too
   * @throws NullPointerException if an argument is null
   */
  CompletableFuture<AuthDecision> get(
      AuthCacheKey key, Function<AuthCacheKey, CompletableFuture<AuthDecision>> loader);

  /**
   * Returns the decision a lookup of {@code key} would serve from the cache now, without loading
   * and without counting a lookup: fresh (within its TTL and its tokens' {@code exp}, not a stale
   * one), completed, and checked by every invalidation that has returned (never a decision an
   * invalidation dropped, nor one whose load was in flight during one).
   *
   * @param key what the decision depends on, not null
   * @return the cached decision, a grant or a cached refusal; empty if there is none (always, with
   *     the cache off)
   * @throws NullPointerException if key is null
   */
  Optional<AuthDecision> peek(AuthCacheKey key);

  /**
   * Removes every entry. Loads in flight are not cached when they complete.
   *
   * @return the number of cached decisions removed
   */
  long invalidateAll();

  /**
   * Removes every entry of a tenant, e.g. when its modules or permissions change.
   *
   * @param tenant the tenant id, not null
   * @return the number of cached decisions removed
   * @throws NullPointerException if tenant is null
   */
  long invalidateTenant(String tenant);

  /**
   * Removes a user's entries in a tenant, e.g. on permission change or deactivation: those whose
   * key has the user id, and those whose decision carries it (requests often have no user id
   * header; the auth module's answer names the user). Loads in flight for the tenant are not
   * cached.
   *
   * @param tenant the tenant id, not null
   * @param userId the user id, not empty
   * @return the number of cached decisions removed
   * @throws IllegalArgumentException if userId is empty
   * @throws NullPointerException if an argument is null
   */
  long invalidateUser(String tenant, String userId);

  /**
   * Removes the entries of a token, e.g. on logout or revocation: those whose key has the token,
   * and those whose decision hands it out as a module token.
   *
   * @param token the token, not empty
   * @return the number of cached decisions removed
   * @throws IllegalArgumentException if token is empty
   * @throws NullPointerException if token is null
   */
  long invalidateToken(String token);

  /**
   * Revokes a user's decisions in a tenant without scanning: those whose key carries the user id
   * (Keycloak's decisions always do), finished or in flight, are never served to a lookup that
   * starts after this returned; they leave the cache when next looked up or when they expire. For
   * {@code settle} from now, the user's decisions are served to their callers but not cached: the
   * authority that decided may learn of the change after the event that caused this call.
   *
   * @param tenant the tenant id, not null
   * @param userId the user id of the keys, not empty
   * @param settle how long decisions of the user are not cached, zero or more
   * @throws IllegalArgumentException if userId is empty or settle negative
   * @throws NullPointerException if an argument is null
   */
  void revokeUser(String tenant, String userId, Duration settle);

  /**
   * Revokes a login session's decisions in a tenant without scanning, as {@link #revokeUser} does a
   * user's: those whose key carries the session.
   *
   * @param tenant the tenant id, not null
   * @param session the session of the keys, not empty
   * @param settle how long decisions of the session are not cached, zero or more
   * @throws IllegalArgumentException if session is empty or settle negative
   * @throws NullPointerException if an argument is null
   */
  void revokeSession(String tenant, String session, Duration settle);

  /**
   * Returns the counters; size is exact (pending maintenance is run first).
   *
   * @return a snapshot
   */
  AuthCacheStats stats();

  /**
   * @return the options the cache was created with
   */
  AuthCacheOptions options();
}
