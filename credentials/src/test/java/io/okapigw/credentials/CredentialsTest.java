package io.okapigw.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one rule by which a request's credentials are read (see {@link Credentials}). */
class CredentialsTest {

  static MultiMap headers(String... namesAndValues) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      headers.add(namesAndValues[i], namesAndValues[i + 1]);
    }
    return headers;
  }

  private static void assertRefused(MultiMap headers, int status, String message) {
    assertThatThrownBy(() -> Credentials.read(headers))
        .isInstanceOfSatisfying(
            CredentialsException.class,
            e -> {
              assertThat(e.status()).isEqualTo(status);
              assertThat(e.getMessage()).contains(message).doesNotContain("t1", "t2");
            });
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "X-Okapi-Token|t1|TOKEN_HEADER",
        "x-okapi-token| t1 |TOKEN_HEADER",
        "Authorization|Bearer t1|AUTHORIZATION",
        "Authorization|bearer  t1 |AUTHORIZATION",
        "Authorization|t1|AUTHORIZATION",
        "Cookie|folioAccessToken=t1|COOKIE",
        "Cookie|a=1; folioAccessToken=t1; folioRefreshToken=r|COOKIE"
      })
  void token_fromEachSource(String header, String value, TokenSource source) {
    Credentials c = Credentials.read(headers(header, value));
    assertThat(c.token()).isEqualTo("t1");
    assertThat(c.source()).isEqualTo(source);
  }

  @Test
  void noToken_noneAndNoUserId() {
    Credentials c =
        Credentials.read(
            headers(
                "X-Okapi-Token", " ",
                "Authorization", "Bearer",
                "Cookie", "folioAccessToken=; folioRefreshToken=r",
                "X-Okapi-User-Id", "someone",
                "X-Okapi-Tenant", "diku"));
    assertThat(c).isEqualTo(new Credentials("diku", null, TokenSource.NONE, null));
    assertThat(c.hasToken()).isFalse();
  }

  @Test
  void userId_onlyWithAToken() {
    assertThat(Credentials.read(headers("X-Okapi-Token", "t1", "X-Okapi-User-Id", " u1 ")).userId())
        .isEqualTo("u1");
  }

  @Test
  void cookieLines_joinedAsOneList() {
    assertThat(
            Credentials.read(headers("Cookie", "a=b", "Cookie", "c=d; folioAccessToken=t1"))
                .token())
        .isEqualTo("t1");
    assertRefused(
        headers("Cookie", "folioAccessToken=t1", "Cookie", "folioAccessToken=t2"),
        400,
        "more than one folioAccessToken");
    assertRefused(
        headers("Cookie", "folioAccessToken=t1; folioAccessToken=t1"), 400, "more than one");
  }

  @Test
  void severalLinesOfOneHeader_mustAgree() {
    assertThat(Credentials.read(headers("X-Okapi-Token", "t1", "X-Okapi-Token", "t1")).token())
        .isEqualTo("t1");
    assertThat(
            Credentials.read(headers("Authorization", "Bearer t1", "Authorization", "t1")).token())
        .isEqualTo("t1");
    assertThat(Credentials.read(headers("X-Okapi-Token", "", "X-Okapi-Token", "t1")).token())
        .isEqualTo("t1");
    assertRefused(headers("X-Okapi-Token", "t1", "X-Okapi-Token", "t2"), 400, "X-Okapi-Token");
    assertRefused(headers("Authorization", "t1", "Authorization", "t2"), 400, "Authorization");
    assertRefused(headers("X-Okapi-Tenant", "a", "X-Okapi-Tenant", "b"), 400, "X-Okapi-Tenant");
    assertRefused(
        headers("X-Okapi-Token", "t1", "X-Okapi-User-Id", "a", "X-Okapi-User-Id", "b"),
        400,
        "X-Okapi-User-Id");
  }

  @Test
  void sources_mustAgree_theFirstIsTheSource() {
    Credentials c =
        Credentials.read(headers("Cookie", "folioAccessToken=t1", "Authorization", "Bearer t1"));
    assertThat(c.source()).isEqualTo(TokenSource.AUTHORIZATION);
    assertRefused(
        headers("X-Okapi-Token", "t1", "Authorization", "Bearer t2"),
        400,
        "X-Okapi-Token and Authorization carry different tokens");
    assertRefused(
        headers("Authorization", "t1", "Cookie", "folioAccessToken=t2"),
        400,
        "Authorization and the folioAccessToken cookie");
  }

  @Test
  void tooLong_431NamingIt() {
    String longToken = "t".repeat(Credentials.MAX_TOKEN_LENGTH + 1);
    assertRefused(headers("Cookie", "folioAccessToken=" + longToken), 431, "folioAccessToken");
    assertRefused(
        headers("X-Okapi-User-Id", "u".repeat(Credentials.MAX_USER_ID_LENGTH + 1)),
        431,
        "X-Okapi-User-Id is 257 characters long; at most 256");
    assertThat(
            Credentials.read(headers("X-Okapi-Token", "t".repeat(Credentials.MAX_TOKEN_LENGTH)))
                .hasToken())
        .isTrue();
  }

  @Test
  void toString_neverPrintsTheToken() {
    assertThat(Credentials.read(headers("X-Okapi-Token", "secret-token")).toString())
        .doesNotContain("secret-token")
        .contains("X-Okapi-Token");
  }
}
