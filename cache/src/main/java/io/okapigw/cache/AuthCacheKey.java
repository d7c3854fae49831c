package io.okapigw.cache;

import java.util.Objects;

/**
 * What an auth decision depends on, and so what it is cached under: the tenant, the request method,
 * the path pattern of the matched handler (not the raw path, so {@code /users/1} and {@code
 * /users/2} share an entry for {@code /users/{id}}), the request's user id, its token, and the
 * login session the token belongs to. Two keys are equal when all six components are.
 *
 * <p>A decision of the auth filter (Okapi's tenants) depends on the token, so its key holds the
 * token and no session. A decision of Keycloak (Eureka's tenants) depends on the user's roles and
 * on the session being alive, not on which of the session's tokens asked (each token is verified on
 * its own before the lookup), so its key holds the user and the session and no token: a refreshed
 * token finds the decisions of the one it replaced.
 *
 * <p>{@link #toString()} never prints the token, only a short fingerprint of it.
 *
 * @param tenant the tenant id ({@code X-Okapi-Tenant}), not null
 * @param method the HTTP method as sent by the client, not null
 * @param pathPattern the matched handler's path pattern, not null
 * @param userId the request's user id; null becomes the empty string
 * @param token the request's token ({@code X-Okapi-Token} or bearer); null becomes the empty string
 * @param session the login session ({@code sid} of a Keycloak token); null becomes the empty string
 */
public record AuthCacheKey(
    String tenant, String method, String pathPattern, String userId, String token, String session) {

  /**
   * Validates and normalizes the components.
   *
   * @throws NullPointerException if tenant, method or pathPattern is null
   */
  public AuthCacheKey {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(pathPattern, "pathPattern");
    userId = userId == null ? "" : userId;
    token = token == null ? "" : token;
    session = session == null ? "" : session;
  }

  /**
   * A key without a session: an auth filter's decision.
   *
   * @throws NullPointerException if tenant, method or pathPattern is null
   */
  public AuthCacheKey(
      String tenant, String method, String pathPattern, String userId, String token) {
    this(tenant, method, pathPattern, userId, token, "");
  }

  /**
   * @return the components, with the token replaced by a fingerprint such as sha256:1a2b3c4d
   */
  @Override
  public String toString() {
    return "AuthCacheKey[tenant="
        + tenant
        + ", method="
        + method
        + ", pathPattern="
        + pathPattern
        + ", userId="
        + userId
        + ", token="
        + TokenFingerprint.of(token)
        + (session.isEmpty() ? "" : ", session=" + session)
        + "]";
  }
}
