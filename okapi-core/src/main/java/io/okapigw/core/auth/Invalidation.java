package io.okapigw.core.auth;

import io.okapigw.cache.AuthCache;
import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Set;

/**
 * What to drop from the auth cache: everything, a tenant, a tenant's user, a tenant's login session
 * (Keycloak's {@code sid}, on an Eureka tenant), or a token (the JSON body of {@code POST
 * /_/proxy/auth-cache/invalidate}).
 *
 * @param tenant the tenant, or null
 * @param userId the user (needs a tenant), or null
 * @param token the token, or null
 * @param session the login session (needs a tenant), or null
 */
public record Invalidation(String tenant, String userId, String token, String session) {

  private static final Set<String> FIELDS = Set.of("tenant", "userId", "token", "session");

  /** Everything, a tenant, a user or a token. */
  public Invalidation(String tenant, String userId, String token) {
    this(tenant, userId, token, null);
  }

  /**
   * @param json the request body; null or empty means everything
   * @throws HttpError 400 for unknown fields, non-string values, or a user id without tenant
   */
  public static Invalidation fromJson(JsonObject json) {
    if (json == null) {
      return new Invalidation(null, null, null);
    }
    for (String field : json.fieldNames()) {
      if (!FIELDS.contains(field)) {
        throw HttpError.badRequest(
            "invalidate: unknown field '" + field + "' (allowed: tenant, userId, token, session)");
      }
    }
    Invalidation inv =
        new Invalidation(
            string(json, "tenant"),
            string(json, "userId"),
            string(json, "token"),
            string(json, "session"));
    if (inv.userId != null && inv.tenant == null) {
      throw HttpError.badRequest("invalidate: userId needs a tenant");
    }
    if (inv.session != null && inv.tenant == null) {
      throw HttpError.badRequest("invalidate: session needs a tenant");
    }
    return inv;
  }

  private static String string(JsonObject json, String field) {
    Object value = json.getValue(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String s) || s.isBlank()) {
      throw HttpError.badRequest("invalidate: " + field + " must be a non-empty string");
    }
    return s;
  }

  /**
   * @return this invalidation as JSON (the token included: only for the cluster's event bus)
   */
  public JsonObject toJson() {
    JsonObject json = new JsonObject();
    if (tenant != null) {
      json.put("tenant", tenant);
    }
    if (userId != null) {
      json.put("userId", userId);
    }
    if (token != null) {
      json.put("token", token);
    }
    if (session != null) {
      json.put("session", session);
    }
    return json;
  }

  /**
   * Applies this invalidation to a local cache.
   *
   * @return the number of entries removed
   */
  public long applyTo(AuthCache cache) {
    if (session != null) {
      cache.revokeSession(tenant, session, Duration.ZERO);
      return 0;
    }
    if (token != null) {
      return cache.invalidateToken(token);
    }
    if (userId != null) {
      return cache.invalidateUser(tenant, userId);
    }
    if (tenant != null) {
      return cache.invalidateTenant(tenant);
    }
    return cache.invalidateAll();
  }

  @Override
  public String toString() {
    return "Invalidation[tenant="
        + tenant
        + ", userId="
        + userId
        + ", token="
        + (token == null ? "none" : "(given)")
        + ", session="
        + session
        + "]";
  }
}
