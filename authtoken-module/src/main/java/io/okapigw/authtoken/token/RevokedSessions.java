package io.okapigw.authtoken.token;

import io.okapigw.authtoken.store.RevokedSession;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sessions ended by logout or refresh-token reuse, in memory for the filter's hot path. Loaded from
 * the store at start, added to on every revocation (local, or announced by another instance), and
 * purged once the entries have outlived every token of the session.
 */
public final class RevokedSessions {
  private final Map<String, Instant> untilBySession = new ConcurrentHashMap<>();
  private final Clock clock;

  /**
   * @param clock clock deciding when an entry may be forgotten
   */
  public RevokedSessions(Clock clock) {
    this.clock = clock;
  }

  /**
   * @param sessions revocations to remember
   */
  public void addAll(Collection<RevokedSession> sessions) {
    sessions.forEach(this::add);
  }

  /**
   * @param session a revocation to remember
   */
  public void add(RevokedSession session) {
    untilBySession.merge(
        key(session.tenant(), session.sessionId()),
        session.until(),
        (a, b) -> a.isAfter(b) ? a : b);
  }

  /**
   * @param tenant tenant id
   * @param sessionId session id, may be {@code null} (never revoked)
   * @return whether the session is revoked
   */
  public boolean isRevoked(String tenant, String sessionId) {
    if (sessionId == null) {
      return false;
    }
    Instant until = untilBySession.get(key(tenant, sessionId));
    return until != null && until.isAfter(clock.instant());
  }

  /** Forgets revocations whose tokens have all expired. */
  public void purge() {
    Instant now = clock.instant();
    untilBySession.values().removeIf(until -> !until.isAfter(now));
  }

  private static String key(String tenant, String sessionId) {
    return tenant + '\n' + sessionId;
  }
}
