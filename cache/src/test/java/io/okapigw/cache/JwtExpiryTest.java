package io.okapigw.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class JwtExpiryTest {

  private static String withPayload(String json) {
    String payload =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(json.getBytes(StandardCharsets.UTF_8));
    return "eyJhbGciOiJIUzI1NiJ9." + payload + ".sig";
  }

  @Test
  void epochSeconds_numericExp_returnsIt() {
    assertThat(JwtExpiry.epochSeconds(Jwt.withClaims(Map.of("exp", 1_750_000_000L))))
        .isEqualTo(1_750_000_000L);
  }

  @Test
  void epochSeconds_fractionalExp_truncated() {
    assertThat(JwtExpiry.epochSeconds(withPayload("{\"exp\":1750000000.9}")))
        .isEqualTo(1_750_000_000L);
  }

  @Test
  void epochSeconds_paddedBase64_accepted() {
    String json = "{\"exp\":17}";
    String padded = Base64.getUrlEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));

    assertThat(padded).endsWith("=");
    assertThat(JwtExpiry.epochSeconds("h." + padded + ".s")).isEqualTo(17);
  }

  @Test
  void epochSeconds_noExp_none() {
    assertThat(JwtExpiry.epochSeconds(Jwt.withoutExp("u"))).isEqualTo(JwtExpiry.NONE);
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"opaque", "one.dot", "a.%%%.c", "a.bm90IGpzb24.c", "a..c"})
  void epochSeconds_notAJwt_none(String token) {
    assertThat(JwtExpiry.epochSeconds(token)).isEqualTo(JwtExpiry.NONE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"[1,2]", "42"})
  void epochSeconds_payloadNotAnObject_none(String payload) {
    assertThat(JwtExpiry.epochSeconds(withPayload(payload))).isEqualTo(JwtExpiry.NONE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"exp\":\"1750000000\"}", "{\"exp\":null}", "{\"exp\":{\"v\":1}}"})
  void epochSeconds_expThereButNotANumber_unreadable(String payload) {
    assertThat(JwtExpiry.epochSeconds(withPayload(payload))).isEqualTo(JwtExpiry.UNREADABLE);
  }
}
