package io.okapigw.authtoken.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.authtoken.filter.AuthFilterHandler;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where a token is read from (Okapi's client-side rules: {@code X-Okapi-Token}, {@code
 * Authorization} with or without {@code Bearer}, the {@code folioAccessToken} cookie; a conflict,
 * or two such cookies, is a 400 as Okapi answers) and which requests are auth-filter calls.
 */
class OkapiHeadersTest {

  private static MultiMap headers(String... namesAndValues) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      headers.add(namesAndValues[i], namesAndValues[i + 1]);
    }
    return headers;
  }

  private static void assert400(MultiMap headers, String message) {
    assertThatThrownBy(() -> OkapiHeaders.token(headers))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains(message).doesNotContain("t1", "t2");
            });
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "X-Okapi-Token|t1",
        "Authorization|Bearer t1",
        "Authorization|t1",
        "Authorization|bearer  t1 ",
        "Cookie|folioAccessToken=t1",
        "Cookie|a=1; folioAccessToken=t1; folioRefreshToken=r"
      })
  void token_fromEachPlace_read(String header, String value) {
    assertThat(OkapiHeaders.token(headers(header, value))).isEqualTo("t1");
  }

  @Test
  void token_none_null() {
    assertThat(OkapiHeaders.token(headers())).isNull();
    assertThat(OkapiHeaders.token(headers("X-Okapi-Token", " ", "Cookie", "folioRefreshToken=r")))
        .isNull();
  }

  @Test
  void token_samePlacesAgree_read() {
    assertThat(
            OkapiHeaders.token(
                headers(
                    "X-Okapi-Token",
                    "t1",
                    "Authorization",
                    "Bearer t1",
                    "Cookie",
                    "folioAccessToken=t1")))
        .isEqualTo("t1");
    assertThat(OkapiHeaders.token(headers("Authorization", "t1", "Cookie", "folioAccessToken=t1")))
        .isEqualTo("t1");
  }

  @Test
  void token_conflictingPlaces_400() {
    assert400(headers("X-Okapi-Token", "t1", "Authorization", "Bearer t2"), "Authorization");
    assert400(headers("X-Okapi-Token", "t1", "Cookie", "folioAccessToken=t2"), "cookie");
    assert400(headers("Authorization", "t1", "Cookie", "folioAccessToken=t2"), "cookie");
  }

  @Test
  void token_twoAccessTokenCookies_400() {
    assert400(
        headers("Cookie", "folioAccessToken=t1; folioAccessToken=t1"),
        "more than one folioAccessToken");
    assert400(
        headers("Cookie", "folioAccessToken=t1", "Cookie", "folioAccessToken=t2"), "more than one");
  }

  /**
   * One rule for gateway and module: several lines of one token header must agree, and {@code
   * Cookie} lines are read as one (RFC 9113 8.2.3: joined with {@code "; "}).
   */
  @Test
  void token_severalLinesOfOneHeaderDisagreeing_400() {
    assert400(headers("X-Okapi-Token", "t1", "X-Okapi-Token", "t2"), "X-Okapi-Token");
    assert400(headers("Authorization", "Bearer t1", "Authorization", "t2"), "Authorization");
    assertThat(OkapiHeaders.token(headers("X-Okapi-Token", "t1", "X-Okapi-Token", "t1")))
        .isEqualTo("t1");
  }

  @Test
  void token_inAnyCookieLine_read() {
    assertThat(
            OkapiHeaders.token(
                headers("Cookie", "a=b", "Cookie", "c=d; folioAccessToken=t1", "Cookie", "e=f")))
        .isEqualTo("t1");
  }

  @Test
  void isFilterCall_modulePermissionsOrAuthFilterHeader_only() {
    assertThat(AuthFilterHandler.isFilterCall(headers("X-Okapi-Module-Permissions", "{}")))
        .isTrue();
    assertThat(
            AuthFilterHandler.isFilterCall(
                headers("X-Okapi-Module-Permissions", "{\"m\":[\"p\"]}")))
        .isTrue();
    assertThat(AuthFilterHandler.isFilterCall(headers("X-Okapi-Filter", "auth"))).isTrue();
    assertThat(AuthFilterHandler.isFilterCall(headers("X-Okapi-Filter", "auth /*"))).isTrue();
    assertThat(AuthFilterHandler.isFilterCall(headers("X-Okapi-Filter", "pre /b/*"))).isFalse();
    assertThat(AuthFilterHandler.isFilterCall(headers("X-Okapi-Filter", "post /b/*"))).isFalse();
    assertThat(
            AuthFilterHandler.isFilterCall(
                headers(
                    "X-Okapi-Tenant",
                    "t1",
                    "X-Okapi-Token",
                    "t",
                    "X-Okapi-Permissions",
                    "[\"p\"]",
                    "X-Okapi-User-Id",
                    "u",
                    "X-Okapi-Url",
                    "http://okapi",
                    "X-Okapi-Request-Id",
                    "1/b",
                    "X-Okapi-Match-Path-Pattern",
                    "/b/{id}")))
        .isFalse();
  }
}
