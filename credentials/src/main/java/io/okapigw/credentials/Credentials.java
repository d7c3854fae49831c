package io.okapigw.credentials;

import io.vertx.core.MultiMap;

/**
 * The credentials of a request, read once by one rule that the gateway and the authtoken module
 * share, so that what a gateway caches a decision under is exactly what the auth module decides on:
 *
 * <ul>
 *   <li>the token from {@code X-Okapi-Token}, {@code Authorization} ({@code Bearer }, any case, is
 *       dropped; a value without it is the token, as Okapi reads it) or the {@value
 *       #ACCESS_TOKEN_COOKIE} cookie; several sources must carry the same token;
 *   <li>every line of a header counts: several lines of {@code X-Okapi-Token}, {@code
 *       Authorization}, {@code X-Okapi-Tenant} or {@code X-Okapi-User-Id} must agree (blank lines
 *       are none); several {@code Cookie} lines are one list (RFC 9113 8.2.3: joined with {@code ";
 *       "}), in which {@value #ACCESS_TOKEN_COOKIE} may appear once (Okapi refuses two);
 *   <li>{@code X-Okapi-User-Id} counts only with a token: no token vouches for a user id sent
 *       without one;
 *   <li>a token over {@value #MAX_TOKEN_LENGTH} characters or a user id over {@value
 *       #MAX_USER_ID_LENGTH} is refused (431): no such credential exists, and each would be a cache
 *       key part of its own.
 * </ul>
 *
 * @param tenant {@code X-Okapi-Tenant}, trimmed, or {@code null}
 * @param token the token, or {@code null}
 * @param source where the token came from ({@link TokenSource#NONE} without one)
 * @param userId {@code X-Okapi-User-Id} sent with the token, trimmed, or {@code null}
 */
public record Credentials(String tenant, String token, TokenSource source, String userId) {

  /** The cookie Stripes keeps the access token in. */
  public static final String ACCESS_TOKEN_COOKIE = "folioAccessToken";

  /** Longest token read: a FOLIO token is under 2 KiB, a module token with many permissions 8. */
  public static final int MAX_TOKEN_LENGTH = 16 * 1024;

  /** Longest user id read: FOLIO's are UUIDs (36 characters). */
  public static final int MAX_USER_ID_LENGTH = 256;

  /**
   * Reads the credentials of a request: one pass over its headers, no allocation per header.
   *
   * @param headers the request's headers
   * @return its credentials
   * @throws CredentialsException 400 if lines or sources disagree or {@value #ACCESS_TOKEN_COOKIE}
   *     is sent twice, 431 if the token or user id is too long
   */
  public static Credentials read(MultiMap headers) {
    return new CredentialReader().read(headers);
  }

  /**
   * @return whether the request has a token
   */
  public boolean hasToken() {
    return token != null;
  }

  /** Never prints the token. */
  @Override
  public String toString() {
    return "Credentials[tenant="
        + tenant
        + ", token="
        + (token == null ? "none" : "from " + source.description())
        + ", userId="
        + userId
        + "]";
  }
}
