package io.okapigw.cache;

/**
 * A decision as held in the cache, with its deadlines on the ticker (nanoseconds). Up to {@code
 * freshUntil} it is served without an auth call; up to {@code retainUntil} it is kept only as a
 * fallback for a failing auth module (stale-if-error); then Caffeine drops it. Both are bounded by
 * the tokens' expiry. An uncacheable answer has both deadlines at its creation time.
 *
 * @param decision what the auth module answered
 * @param freshUntil ticker time the decision stops being fresh
 * @param retainUntil ticker time the entry leaves the cache, at or after {@code freshUntil}
 * @param generation the invalidation generation when the load started
 */
record CachedDecision(AuthDecision decision, long freshUntil, long retainUntil, long generation) {

  static CachedDecision uncacheable(AuthDecision decision, long now, long generation) {
    return new CachedDecision(decision, now, now, generation);
  }

  boolean isFresh(long now) {
    return now - freshUntil < 0; // difference, not comparison: ticker values may overflow
  }

  boolean isRetained(long now) {
    return now - retainUntil < 0;
  }

  long nanosLeft(long now) {
    return Math.max(0L, retainUntil - now);
  }

  CachedDecision asStale(long loadGeneration) {
    return new CachedDecision(decision.asStale(), freshUntil, retainUntil, loadGeneration);
  }
}
