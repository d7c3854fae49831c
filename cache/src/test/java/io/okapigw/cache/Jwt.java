package io.okapigw.cache;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

/** Builds unsigned compact JWTs for tests; the cache never verifies signatures. */
final class Jwt {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Jwt() {}

  static String withClaims(Map<String, ?> claims) {
    return part(Map.of("alg", "HS256", "typ", "JWT")) + "." + part(claims) + ".c2lnbmF0dXJl";
  }

  /** A token whose payload is {@code json} as it is (any value types). */
  static String withClaimsJson(String json) {
    return part(Map.of("alg", "HS256", "typ", "JWT"))
        + "."
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(json.getBytes(StandardCharsets.UTF_8))
        + ".c2lnbmF0dXJl";
  }

  static String expiringAt(Instant exp, String subject) {
    return withClaims(Map.of("sub", subject, "exp", exp.getEpochSecond()));
  }

  static String withoutExp(String subject) {
    return withClaims(Map.of("sub", subject));
  }

  private static String part(Map<String, ?> json) {
    try {
      byte[] bytes = JSON.writeValueAsString(json).getBytes(StandardCharsets.UTF_8);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
