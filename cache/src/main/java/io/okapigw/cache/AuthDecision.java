package io.okapigw.cache;

import java.time.Instant;
import java.util.Map;

/**
 * The auth module's answer to one auth-filter call, as cached by {@link AuthCache}. A 2xx status is
 * a grant (the request goes on to the handler with the headers below); 401 and 403 are denials; any
 * other status is an error the gateway passes to the client as is.
 *
 * <p>Build one with {@link #grant} or {@link #refusal}; the cache fills in {@code expiresAt} and
 * {@code stale}. {@link #toString()} never prints a token. String components are never null: an
 * absent header is the empty string.
 *
 * @param status the auth module's HTTP status, 100 to 599
 * @param moduleToken the token for the handler module ({@code X-Okapi-Token} of the answer)
 * @param userId the authenticated user ({@code X-Okapi-User-Id} of the answer)
 * @param permissions the granted permissions as the raw JSON array of {@code X-Okapi-Permissions}
 * @param moduleTokens module id to token, from {@code X-Okapi-Module-Tokens} (key {@code _} is the
 *     default); an immutable copy, empty when absent
 * @param body the auth module's response body of a refusal, passed to the client
 * @param contentType the content type of {@code body}
 * @param expiresAt until when the cache serves this decision as fresh; null when the decision was
 *     not cached (an uncacheable status, an expired token, the cache turned off)
 * @param stale true when served past {@code expiresAt} because the auth module failed (see {@link
 *     AuthCacheOptions#staleIfError})
 */
public record AuthDecision(
    int status,
    String moduleToken,
    String userId,
    String permissions,
    Map<String, String> moduleTokens,
    String body,
    String contentType,
    Instant expiresAt,
    boolean stale) {

  /**
   * Validates and normalizes the components: null strings become empty, null module tokens an empty
   * map.
   *
   * @throws IllegalArgumentException if status is not 100 to 599
   * @throws NullPointerException if moduleTokens holds a null key or value
   */
  public AuthDecision {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("status must be 100 to 599, was " + status);
    }
    moduleToken = orEmpty(moduleToken);
    userId = orEmpty(userId);
    permissions = orEmpty(permissions);
    moduleTokens = moduleTokens == null ? Map.of() : Map.copyOf(moduleTokens);
    body = orEmpty(body);
    contentType = orEmpty(contentType);
  }

  /**
   * A grant: the auth module answered 2xx (mod-authtoken answers 202).
   *
   * @param status the 2xx status
   * @param moduleToken {@code X-Okapi-Token} of the answer, may be null
   * @param userId {@code X-Okapi-User-Id} of the answer, may be null
   * @param permissions {@code X-Okapi-Permissions} of the answer (a JSON array), may be null
   * @param moduleTokens the parsed {@code X-Okapi-Module-Tokens}, may be null
   * @return the decision
   * @throws IllegalArgumentException if status is not 2xx
   */
  public static AuthDecision grant(
      int status,
      String moduleToken,
      String userId,
      String permissions,
      Map<String, String> moduleTokens) {
    if (status / 100 != 2) {
      throw new IllegalArgumentException("a grant needs a 2xx status, was " + status);
    }
    return new AuthDecision(
        status, moduleToken, userId, permissions, moduleTokens, "", "", null, false);
  }

  /**
   * A refusal: any non-2xx answer, 401/403 denials as well as errors such as 400 or 500.
   *
   * @param status the non-2xx status
   * @param body the response body to pass to the client, may be null
   * @param contentType the body's content type, may be null
   * @return the decision
   * @throws IllegalArgumentException if status is 2xx or not 100 to 599
   */
  public static AuthDecision refusal(int status, String body, String contentType) {
    if (status / 100 == 2) {
      throw new IllegalArgumentException("a refusal needs a non-2xx status, was " + status);
    }
    return new AuthDecision(status, "", "", "", Map.of(), body, contentType, null, false);
  }

  /**
   * @return true for a 2xx status: the request may proceed
   */
  public boolean isGrant() {
    return status / 100 == 2;
  }

  /**
   * @return true for 401 or 403: the only refusals that negative caching stores
   */
  public boolean isDenial() {
    return status == 401 || status == 403;
  }

  AuthDecision cachedUntil(Instant until) {
    return new AuthDecision(
        status, moduleToken, userId, permissions, moduleTokens, body, contentType, until, stale);
  }

  AuthDecision asStale() {
    return new AuthDecision(
        status, moduleToken, userId, permissions, moduleTokens, body, contentType, expiresAt, true);
  }

  /**
   * @return the components, tokens replaced by fingerprints and module tokens by their ids
   */
  @Override
  public String toString() {
    return "AuthDecision[status="
        + status
        + ", moduleToken="
        + TokenFingerprint.of(moduleToken)
        + ", userId="
        + userId
        + ", permissions="
        + permissions
        + ", moduleTokens="
        + moduleTokens.keySet()
        + ", contentType="
        + contentType
        + ", expiresAt="
        + expiresAt
        + ", stale="
        + stale
        + "]";
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
