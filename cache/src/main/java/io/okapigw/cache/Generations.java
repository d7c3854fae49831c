package io.okapigw.cache;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;

/**
 * The invalidation clock of a cache, and the rule that keeps a decision from before an invalidation
 * away from every lookup that starts after the invalidation returned.
 *
 * <p>An invalidation moves {@link #current()} on before it scans (loads that start from then on
 * carry the new generation), scans, and only then becomes {@link #settled()}. Invalidations run one
 * at a time. The scan marks each completed decision it keeps with its generation ({@link
 * CachedDecision#kept}); it cannot judge a load in flight by its decision, nor see an entry that
 * Caffeine is inserting while it passes. So a lookup reads {@link #settled()} when it starts and
 * takes a decision only if {@link CachedDecision#checkedAt()} is at least that: the decision was
 * loaded after, or checked by, every invalidation that had returned. Anything else is dropped and
 * loaded again. A lookup running while an invalidation runs may still get the older decision, as it
 * would had it come a moment earlier.
 */
final class Generations {

  private final AtomicLong current = new AtomicLong();
  private volatile long settled;

  /**
   * @return the generation a load starting now carries
   */
  long current() {
    return current.get();
  }

  /**
   * @return the generation of the last invalidation that returned
   */
  long settled() {
    return settled;
  }

  /**
   * @param entry a completed decision
   * @param settled what {@link #settled()} was when the lookup started
   * @return whether the lookup may take it
   */
  static boolean servable(CachedDecision entry, long settled) {
    return entry.checkedAt() >= settled;
  }

  /**
   * Runs one invalidation: after any other has finished, moves the generation on, runs {@code scan}
   * with it, then settles it.
   *
   * @param scan removes what the invalidation covers and marks what it keeps; returns the count
   * @return what {@code scan} returned
   */
  synchronized long invalidate(LongUnaryOperator scan) {
    long generation = current.incrementAndGet();
    try {
      return scan.applyAsLong(generation);
    } finally {
      settled = generation;
    }
  }
}
