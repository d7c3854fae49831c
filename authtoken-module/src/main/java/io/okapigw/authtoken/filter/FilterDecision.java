package io.okapigw.authtoken.filter;

import java.util.List;
import java.util.Map;

/**
 * The auth filter's answer (202).
 *
 * @param token {@code X-Okapi-Token}: the request's token, or the anonymous token if it had none
 * @param userId {@code X-Okapi-User-Id}, {@code null} for a request without user
 * @param permissions {@code X-Okapi-Permissions}: the required and desired permissions held
 * @param moduleTokens {@code X-Okapi-Module-Tokens}: module id to module token, and {@code "_"} to
 *     {@code token}
 */
public record FilterDecision(
    String token, String userId, List<String> permissions, Map<String, String> moduleTokens) {

  @Override
  public String toString() {
    return "FilterDecision[userId="
        + userId
        + ", permissions="
        + permissions
        + ", modules="
        + moduleTokens.keySet()
        + "]";
  }
}
