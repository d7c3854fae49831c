package io.okapigw.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.util.Base64;

/**
 * Reads the {@code exp} claim of a JWT without verifying it. The cache only uses it to expire
 * entries early; the auth module does the verifying. Anything that is not a JWT, or a JWT without
 * {@code exp} (legacy non-expiring tokens, opaque tokens, garbage), has no expiry; a JWT whose
 * {@code exp} is there but not a number (RFC 7519: a NumericDate is one) has an expiry the cache
 * cannot read, and is not cached at all: an auth module may read {@code "exp": "<seconds>"} as a
 * date (JJWT does) and grant until then.
 */
final class JwtExpiry {

  /** Returned when there is no {@code exp}. */
  static final long NONE = Long.MAX_VALUE;

  /** Returned for an {@code exp} that is not a number: expired, for the cache. */
  static final long UNREADABLE = Long.MIN_VALUE;

  private static final ObjectReader JSON = new ObjectMapper().reader();

  private JwtExpiry() {}

  /**
   * @param token a compact JWT ({@code header.payload.signature}), may be null or anything
   * @return the {@code exp} claim in epoch seconds (fractions dropped), {@link #NONE} without one,
   *     {@link #UNREADABLE} for one that is not a number
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
      if (exp.isMissingNode()) {
        return NONE;
      }
      return exp.isNumber() ? exp.asLong() : UNREADABLE;
    } catch (IllegalArgumentException | IOException e) {
      return NONE;
    }
  }
}
