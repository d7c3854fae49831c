package io.okapigw.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Revocations of a user's or a session's decisions that cost the same whatever the cache holds: no
 * scan, no index. A revocation writes a stamp under its scope (tenant and user, or tenant and
 * session) with the next number of one sequence that every load also takes a number from when it
 * starts; a decision is servable only if its load started after every stamp of its key's scopes
 * ({@link #allows}). So a decision loaded before the revocation, finished or in flight, is never
 * served to a lookup that starts after the revocation returned, exactly as with the scans of {@link
 * Generations}; the entries it condemns leave when next looked up, or when they expire.
 *
 * <p>A stamp is kept as long as an entry loaded before it could still be in the cache (the longest
 * lifetime an entry can have), plus its settle time; then no entry it condemns is left and it goes.
 * During the settle time, decisions of the scope are served to their callers but not cached: the
 * event that caused the revocation may arrive before the authority it reports on has changed
 * (FOLIO's logout event is sent before Keycloak ends the session), and a decision it gave meanwhile
 * must not be kept.
 */
final class Revocations {

  private static final char USER = 'u';
  private static final char SESSION = 's';

  private record Scope(String tenant, char kind, String id) {}

  private record Stamp(long sequence, long settledAt, long keepNanos) {}

  private final AtomicLong sequence = new AtomicLong();
  private final TimeSource time;
  private final long longestLife;
  private final Cache<Scope, Stamp> stamps;

  /**
   * @param longestLife the longest an entry stays in the cache, nanoseconds
   */
  Revocations(TimeSource time, long longestLife) {
    this.time = time;
    this.longestLife = longestLife;
    this.stamps =
        Caffeine.newBuilder()
            .ticker(time.ticker())
            .expireAfter(
                new Expiry<Scope, Stamp>() {
                  @Override
                  public long expireAfterCreate(Scope scope, Stamp stamp, long now) {
                    return stamp.keepNanos();
                  }

                  @Override
                  public long expireAfterUpdate(Scope scope, Stamp stamp, long now, long left) {
                    return stamp.keepNanos();
                  }

                  @Override
                  public long expireAfterRead(Scope scope, Stamp stamp, long now, long left) {
                    return left;
                  }
                })
            .build();
  }

  /**
   * @return the number a load starting now carries
   */
  long nextLoad() {
    return sequence.incrementAndGet();
  }

  void revokeUser(String tenant, String userId, long settleNanos) {
    revoke(new Scope(Objects.requireNonNull(tenant, "tenant"), USER, userId), settleNanos);
  }

  void revokeSession(String tenant, String session, long settleNanos) {
    revoke(new Scope(Objects.requireNonNull(tenant, "tenant"), SESSION, session), settleNanos);
  }

  private void revoke(Scope scope, long settleNanos) {
    if (Objects.requireNonNull(scope.id(), "id").isEmpty()) {
      throw new IllegalArgumentException("a revoked user id or session must not be empty");
    }
    if (settleNanos < 0) {
      throw new IllegalArgumentException("settle must not be negative");
    }
    long settle = Math.min(settleNanos, longestLife);
    stamps.put(
        scope,
        new Stamp(
            sequence.incrementAndGet(),
            time.nanoTime() + settle,
            saturatedSum(longestLife, settle)));
  }

  /**
   * A stamp is forgotten after the longest lifetime (plus its settle time); so is a load: one that
   * started longer ago than that is no longer served to anyone but its starter (no entry lives that
   * long, and a stamp it predates may be gone).
   *
   * @return whether {@code entry}, loaded for {@code key}, may be served: its load started after
   *     every revocation of the key's user and session, and less than the longest lifetime ago
   */
  boolean allows(AuthCacheKey key, CachedDecision entry) {
    if (time.nanoTime() - entry.startedAt() >= longestLife) {
      return false;
    }
    if (stamps.asMap().isEmpty()) {
      return true;
    }
    long loadSequence = entry.loadSequence();
    return startedAfter(userScope(key), loadSequence)
        && startedAfter(sessionScope(key), loadSequence);
  }

  /**
   * @return whether a decision for {@code key} completing now must not be cached: a revocation of
   *     its user or session is settling
   */
  boolean settling(AuthCacheKey key) {
    if (stamps.asMap().isEmpty()) {
      return false;
    }
    long now = time.nanoTime();
    return settling(userScope(key), now) || settling(sessionScope(key), now);
  }

  private boolean startedAfter(Scope scope, long loadSequence) {
    Stamp stamp = scope == null ? null : stamps.getIfPresent(scope);
    return stamp == null || loadSequence > stamp.sequence();
  }

  private boolean settling(Scope scope, long now) {
    Stamp stamp = scope == null ? null : stamps.getIfPresent(scope);
    return stamp != null && now - stamp.settledAt() < 0;
  }

  private static Scope userScope(AuthCacheKey key) {
    return key.userId().isEmpty() ? null : new Scope(key.tenant(), USER, key.userId());
  }

  private static Scope sessionScope(AuthCacheKey key) {
    return key.session().isEmpty() ? null : new Scope(key.tenant(), SESSION, key.session());
  }

  private static long saturatedSum(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }
}
