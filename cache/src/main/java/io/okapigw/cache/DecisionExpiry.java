package io.okapigw.cache;

import com.github.benmanes.caffeine.cache.Expiry;
import java.util.function.LongSupplier;

/**
 * Caffeine's per-entry expiry: an entry lives until its {@code retainUntil}, except that one whose
 * load started before the latest invalidation lives not at all. Caffeine asks when a completed load
 * is stored (a load in flight never expires), so an uncacheable answer still reaches every caller
 * waiting on it and the next lookup loads again.
 */
final class DecisionExpiry implements Expiry<StoredKey, CachedDecision> {

  private final LongSupplier currentGeneration;

  DecisionExpiry(LongSupplier currentGeneration) {
    this.currentGeneration = currentGeneration;
  }

  @Override
  public long expireAfterCreate(StoredKey key, CachedDecision value, long currentTime) {
    if (value.generation() != currentGeneration.getAsLong()) {
      return 0;
    }
    return value.nanosLeft(currentTime);
  }

  @Override
  public long expireAfterUpdate(
      StoredKey key, CachedDecision value, long currentTime, long currentDuration) {
    return expireAfterCreate(key, value, currentTime);
  }

  @Override
  public long expireAfterRead(
      StoredKey key, CachedDecision value, long currentTime, long currentDuration) {
    return currentDuration;
  }
}
