package io.okapigw.authtoken.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A refresh token as stored: only its SHA-256 hash, never the token.
 *
 * @param tenant tenant id
 * @param tokenHash hex SHA-256 of the token
 * @param userId the user it belongs to
 * @param sessionId the login session (shared by the access tokens it yields)
 * @param expiresAt when it stops being valid
 * @param used whether it was already exchanged (single use)
 */
public record RefreshTokenRecord(
    String tenant,
    String tokenHash,
    String userId,
    String sessionId,
    Instant expiresAt,
    boolean used) {

  /** Checks the fields. */
  public RefreshTokenRecord {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(tokenHash, "tokenHash");
    Objects.requireNonNull(userId, "userId");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /**
   * @return this token, exchanged
   */
  public RefreshTokenRecord asUsed() {
    return new RefreshTokenRecord(tenant, tokenHash, userId, sessionId, expiresAt, true);
  }
}
