package io.okapigw.cache;

/**
 * A decision as held in the cache, with its deadlines on the ticker (nanoseconds). Up to {@code
 * freshUntil} it is served without an auth call; up to {@code retainUntil} it is kept only as a
 * fallback for a failing auth module (stale-if-error); then Caffeine drops it. Both are bounded by
 * the tokens' expiry. An uncacheable answer has both deadlines at its creation time.
 *
 * <p>{@link #checkedAt()} is the last invalidation generation the decision is known to be valid at:
 * the generation its load started in, moved on by each invalidation that looked at the completed
 * decision and kept it (see {@link Generations}).
 */
final class CachedDecision {

  private final AuthDecision decision;
  private final long freshUntil;
  private final long retainUntil;
  private final long generation;
  private final long loadSequence;
  private final long startedAt;
  private volatile long checkedAt;

  /**
   * @param decision what the auth module answered
   * @param freshUntil ticker time the decision stops being fresh
   * @param retainUntil ticker time the entry leaves the cache, at or after {@code freshUntil}
   * @param generation the invalidation generation when the load started
   * @param loadSequence the number the load took when it started ({@link Revocations#nextLoad})
   * @param startedAt ticker time the load started
   */
  CachedDecision(
      AuthDecision decision,
      long freshUntil,
      long retainUntil,
      long generation,
      long loadSequence,
      long startedAt) {
    this.decision = decision;
    this.freshUntil = freshUntil;
    this.retainUntil = retainUntil;
    this.generation = generation;
    this.loadSequence = loadSequence;
    this.startedAt = startedAt;
    this.checkedAt = generation;
  }

  static CachedDecision uncacheable(
      AuthDecision decision, long now, long generation, long loadSequence, long startedAt) {
    return new CachedDecision(decision, now, now, generation, loadSequence, startedAt);
  }

  /**
   * @return the same entry holding {@code held} (the decision in the form the cache holds it)
   */
  CachedDecision holding(AuthDecision held) {
    return new CachedDecision(held, freshUntil, retainUntil, generation, loadSequence, startedAt);
  }

  AuthDecision decision() {
    return decision;
  }

  /**
   * @return the invalidation generation when the load started
   */
  long generation() {
    return generation;
  }

  /**
   * @return the number the load took when it started, compared with revocations' stamps
   */
  long loadSequence() {
    return loadSequence;
  }

  /**
   * @return ticker time the load started
   */
  long startedAt() {
    return startedAt;
  }

  /**
   * @return the latest invalidation generation this decision is known to be valid at
   */
  long checkedAt() {
    return checkedAt;
  }

  /**
   * Records that invalidation {@code generation} looked at this completed decision and kept it;
   * counts only if every invalidation before it did too (invalidations run one at a time).
   */
  void kept(long generation) {
    if (checkedAt == generation - 1) {
      checkedAt = generation;
    }
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
    return new CachedDecision(
        decision.asStale(), freshUntil, retainUntil, loadGeneration, loadSequence, startedAt);
  }
}
