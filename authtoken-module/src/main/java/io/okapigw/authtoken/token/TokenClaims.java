package io.okapigw.authtoken.token;

import java.time.Instant;
import java.util.List;

/**
 * The claims of a verified token.
 *
 * @param type {@code access} (per login) or {@code module} (per user token and module)
 * @param subject username ({@link TokenService#ANONYMOUS} for a request without token)
 * @param userId user id, {@code null} for the anonymous module token
 * @param tenant tenant id
 * @param sessionId login session ({@code sid}), {@code null} for the anonymous module token
 * @param extraPermissions permissions the token grants on top of the user's (module tokens)
 * @param expiresAt expiry ({@code exp})
 */
public record TokenClaims(
    String type,
    String subject,
    String userId,
    String tenant,
    String sessionId,
    List<String> extraPermissions,
    Instant expiresAt) {

  /** Copies the list. */
  public TokenClaims {
    extraPermissions = extraPermissions == null ? List.of() : List.copyOf(extraPermissions);
  }
}
