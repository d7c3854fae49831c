package io.okapigw.authtoken.token;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.okapigw.authtoken.http.ApiException;
import java.io.IOException;
import java.util.Base64;

/**
 * RFC 7519 section 2: {@code exp}, {@code nbf} and {@code iat} are NumericDates, JSON numbers. JJWT
 * also reads a string as a date ({@code "exp": "1750000000"}, or ISO 8601), which a gateway's
 * cache, reading {@code exp} as a number only, would not bound its entries by: such tokens are
 * refused.
 */
final class NumericDates {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] DATES = {"exp", "nbf", "iat"};

  private NumericDates() {}

  /**
   * @param token a compact JWT whose signature was verified
   * @throws ApiException 401 naming the first date claim that is present but not a number
   */
  static void check(String token) {
    int first = token.indexOf('.');
    int second = token.indexOf('.', first + 1);
    JsonNode payload;
    try {
      payload = JSON.readTree(Base64.getUrlDecoder().decode(token.substring(first + 1, second)));
    } catch (IOException | IllegalArgumentException | IndexOutOfBoundsException e) {
      throw ApiException.unauthorized("malformed token");
    }
    for (String claim : DATES) {
      JsonNode value = payload.get(claim);
      if (value != null && !value.isNumber()) {
        throw ApiException.unauthorized(
            "token claim " + claim + " must be a number (RFC 7519 NumericDate)");
      }
    }
  }
}
