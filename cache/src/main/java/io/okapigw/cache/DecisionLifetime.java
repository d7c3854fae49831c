package io.okapigw.cache;

import java.util.concurrent.TimeUnit;

/**
 * Decides how long an answer of the auth module stays in the cache: the TTL for grants, the
 * negative TTL for 401/403, nothing for the rest; cut short by the earliest {@code exp} of the
 * request token and the module tokens in the answer; plus the stale-if-error window for keeping
 * (never past that {@code exp}).
 */
final class DecisionLifetime {

  private final long ttlNanos;
  private final long negativeTtlNanos;
  private final long staleNanos;
  private final TimeSource time;

  DecisionLifetime(AuthCacheOptions options, TimeSource time) {
    this.ttlNanos = options.ttl().toNanos();
    this.negativeTtlNanos = options.negativeTtl().toNanos();
    this.staleNanos = options.staleIfError().toNanos();
    this.time = time;
  }

  /**
   * @return the longest an entry can stay in the cache, nanoseconds
   */
  long longest() {
    return saturatedSum(Math.max(ttlNanos, negativeTtlNanos), staleNanos);
  }

  /**
   * The TTLs count from when the load started, not from its answer: the decision tells what held
   * when it was asked, and no entry outlives by more than the longest lifetime a revocation made
   * while its load was in flight ({@link Revocations} keeps its stamp that long). So does the
   * stale-if-error window: an answer that came after its TTL (a busy auth module, a short TTL) is
   * stale on arrival but kept for the rest of that window, as it would have been had it come at
   * once; it is not served from the cache without asking the auth module again.
   *
   * @param key the key the decision was loaded for
   * @param decision the auth module's answer
   * @param started ticker time the load started
   * @param generation the invalidation generation when the load started
   * @param loadSequence the number the load took when it started
   * @param settling whether a revocation of the key's user or session is settling: not cached
   * @return the entry to cache; uncacheable ones have no time left
   */
  CachedDecision entry(
      AuthCacheKey key,
      AuthDecision decision,
      long started,
      long generation,
      long loadSequence,
      boolean settling) {
    long now = time.nanoTime();
    long cacheFor = settling ? 0 : cacheFor(decision);
    long untilExpiry = cacheFor > 0 ? nanosUntilExpiry(key, decision) : 0;
    long retain =
        Math.min(saturatedSum(started - now, saturatedSum(cacheFor, staleNanos)), untilExpiry);
    if (retain <= 0) {
      return CachedDecision.uncacheable(decision, now, generation, loadSequence, started);
    }
    // an answer slower than the TTL is expired on arrival, but kept for stale-if-error
    long fresh = Math.max(0, Math.min(saturatedSum(started - now, cacheFor), untilExpiry));
    AuthDecision stamped = decision.cachedUntil(time.instant().plusNanos(fresh));
    return new CachedDecision(
        stamped, now + fresh, now + retain, generation, loadSequence, started);
  }

  private static long saturatedSum(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : sum;
  }

  private long cacheFor(AuthDecision decision) {
    if (decision.isGrant()) {
      return ttlNanos;
    }
    return decision.isDenial() ? negativeTtlNanos : 0;
  }

  private long nanosUntilExpiry(AuthCacheKey key, AuthDecision decision) {
    long exp =
        Math.min(
            JwtExpiry.epochSeconds(key.token()), JwtExpiry.epochSeconds(decision.moduleToken()));
    for (String moduleToken : decision.moduleTokens().values()) {
      exp = Math.min(exp, JwtExpiry.epochSeconds(moduleToken));
    }
    if (exp == JwtExpiry.NONE) {
      return Long.MAX_VALUE;
    }
    long expMillis = TimeUnit.SECONDS.toMillis(exp); // saturates
    long nowMillis = time.epochMillis();
    return expMillis <= nowMillis ? 0 : TimeUnit.MILLISECONDS.toNanos(expMillis - nowMillis);
  }
}
