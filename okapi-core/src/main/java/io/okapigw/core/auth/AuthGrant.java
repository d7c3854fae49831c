package io.okapigw.core.auth;

import java.util.Map;

/**
 * A 2xx answer of the auth filter: what the gateway applies to the request.
 *
 * @param token the answer's X-Okapi-Token (the user's token, possibly renewed), or null
 * @param userId the answer's X-Okapi-User-Id, or null
 * @param permissions the answer's X-Okapi-Permissions (JSON array text), or null
 * @param moduleTokens X-Okapi-Module-Tokens: module id (or {@code _}) to token
 */
public record AuthGrant(String token, String userId, String permissions,
    Map<String, String> moduleTokens) {

  public AuthGrant {
    moduleTokens = Map.copyOf(moduleTokens);
  }

  /**
   * Okapi's rule for the token a module gets: its own module token, else the {@code _} token,
   * else the answer's token, else the client's.
   */
  public String tokenFor(String moduleId, String clientToken) {
    String own = moduleTokens.get(moduleId);
    if (own != null) {
      return own;
    }
    String fallback = moduleTokens.get("_");
    if (fallback != null) {
      return fallback;
    }
    return token != null ? token : clientToken;
  }

  @Override
  public String toString() {
    return "AuthGrant[userId=" + userId + ", modules=" + moduleTokens.keySet() + "]";
  }
}
