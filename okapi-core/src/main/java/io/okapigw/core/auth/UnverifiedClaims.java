package io.okapigw.core.auth;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Claims read from a JWT's payload WITHOUT verifying it. Only for routing hints (the tenant when no
 * X-Okapi-Tenant is sent, as Okapi does); the auth filter verifies every token.
 */
public final class UnverifiedClaims {

  private static final int MAX_TOKEN_LENGTH = 16 * 1024;

  private final JsonObject payload;

  private UnverifiedClaims(JsonObject payload) {
    this.payload = payload;
  }

  /**
   * @return the payload's claims, or empty if the token is not a parseable JWT
   */
  public static Optional<UnverifiedClaims> of(String token) {
    if (token == null || token.length() > MAX_TOKEN_LENGTH) {
      return Optional.empty();
    }
    int first = token.indexOf('.');
    int second = first < 0 ? -1 : token.indexOf('.', first + 1);
    if (second < 0) {
      return Optional.empty();
    }
    try {
      byte[] json = Base64.getUrlDecoder().decode(token.substring(first + 1, second));
      return Optional.of(
          new UnverifiedClaims(new JsonObject(new String(json, StandardCharsets.UTF_8))));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * @return the {@code tenant} claim, if it is a string
   */
  public Optional<String> tenant() {
    return string("tenant");
  }

  /**
   * @return the {@code user_id} claim, if it is a string
   */
  public Optional<String> userId() {
    return string("user_id");
  }

  private Optional<String> string(String claim) {
    Object value = payload.getValue(claim);
    return value instanceof String s ? Optional.of(s) : Optional.empty();
  }
}
