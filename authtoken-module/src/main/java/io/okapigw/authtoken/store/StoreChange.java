package io.okapigw.authtoken.store;

import java.time.Instant;

/**
 * A change made by another process sharing the store (PostgreSQL only), so that this process drops
 * what it cached.
 *
 * @param kind what changed
 * @param tenant tenant id, {@code null} for {@link Kind#ALL}
 * @param subject user id for {@link Kind#USER}, session id for {@link Kind#SESSION_REVOKED}
 * @param until for {@link Kind#SESSION_REVOKED}: until when the session stays revoked
 */
public record StoreChange(Kind kind, String tenant, String subject, Instant until) {

  /** What changed. */
  public enum Kind {
    /** A user's account or permissions. */
    USER,
    /** A tenant's permission sets. */
    PERMISSION_SETS,
    /** A session was revoked. */
    SESSION_REVOKED,
    /** Unknown: changes may have been missed (e.g. after a reconnect); drop everything. */
    ALL
  }
}
