package io.okapigw.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.util.Base64;

/**
 * Reads the {@code exp} claim of a JWT without verifying it. The cache only uses it to expire
 * entries early; the auth module does the verifying. Anything that is not a JWT with a numeric
 * {@code exp} (legacy non-expiring tokens, opaque tokens, garbage) has no expiry.
 */
final class JwtExpiry {

  /** Returned when there is no usable {@code exp}. */
  static final long NONE = Long.MAX_VALUE;

  private static final ObjectReader JSON = new ObjectMapper().reader();

  private JwtExpiry() {}

  /**
   * @param token a compact JWT ({@code header.payload.signature}), may be null or anything
   * @return the {@code exp} claim in epoch seconds (fractions dropped), or {@link #NONE}
   */
  static long epochSeconds(String token) {
    if (token == null) {
      return NONE;
    }
    int first = token.indexOf('.');
    int second = token.indexOf('.', first + 1);
    if (first < 0 || second < 0) {
      return NONE;
    }
    try {
      byte[] payload = Base64.getUrlDecoder().decode(token.substring(first + 1, second));
      JsonNode exp = JSON.readTree(payload).path("exp");
      return exp.isNumber() ? exp.asLong() : NONE;
    } catch (IllegalArgumentException | IOException e) {
      return NONE;
    }
  }
}
