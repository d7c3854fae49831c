package io.okapigw.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

/**
 * Request ids: Okapi's six digits and first path segment, then the call's key; a caller's id
 * chained before; logged without the secrets.
 */
class RequestIdsTest {

  private static final String KEY = "HandleAB" + "s".repeat(24);

  @Test
  void next_withoutIncoming_isSixDigitsTheFirstSegmentAndTheKey() {
    assertThat(RequestIds.next(null, "/circulation/check-out-by-barcode", KEY))
        .matches("\\d{6}/circulation~" + KEY);
    assertThat(RequestIds.next("  ", "/users", KEY)).matches("\\d{6}/users~" + KEY);
  }

  @Test
  void next_withIncoming_chainsOwnIdAfterTheCallers() {
    assertThat(RequestIds.next("123456/circulation", "/item-storage/items/1", KEY))
        .matches("123456/circulation;\\d{6}/item-storage~" + KEY);
  }

  @Test
  void next_withOverlongIncoming_startsAFreshChain() {
    assertThat(RequestIds.next("1".repeat(2049), "/users", KEY)).matches("\\d{6}/users~" + KEY);
    assertThat(RequestIds.next("1".repeat(2048), "/users", KEY)).hasSize(2048 + 1 + 6 + 6 + 33);
  }

  @Test
  void next_keepsLeadingZeroesOfTheDigits() {
    for (int i = 0; i < 2000; i++) {
      assertThat(RequestIds.next(null, "/a", KEY)).hasSize(8 + 33).matches("\\d{6}/a~.*");
    }
  }

  @Test
  void keys_lastElementsFirst_onlyWellFormedOnes() {
    String other = "OtherKey" + "t".repeat(24);
    String id = "1/a~" + KEY + ";2/b;3/c~" + other + ";4/d~short";

    assertThat(RequestIds.keys(id)).containsExactly(other, KEY);
    assertThat(RequestIds.keys("1/a~" + KEY.replace('s', '*'))).isEmpty();
    assertThat(RequestIds.keys(null)).isEmpty();
  }

  @Test
  void keys_ofAnAbsurdId_atMostAChainsWorth() {
    assertThat(RequestIds.keys(("1/a~" + KEY + ";").repeat(1000))).hasSize(RequestIds.MOST_KEYS);
  }

  @Test
  void loggable_keepsHandles_dropsSecrets() {
    String id = "123456/a~" + KEY + ";654321/b;1/c~" + KEY;

    assertThat(RequestIds.loggable(id)).isEqualTo("123456/a~HandleAB;654321/b;1/c~HandleAB");
    assertThat(RequestIds.loggable("123456/a")).isEqualTo("123456/a");
    assertThat(RequestIds.loggable("a~b;;")).isEqualTo("a~b;;");
    assertThat(RequestIds.loggable(null)).isNull();
  }

  @Test
  void withoutKeys_dropsHandlesAndSecrets_okapisIdLeft() {
    assertThat(RequestIds.withoutKeys("123456/users~" + KEY)).isEqualTo("123456/users");
    assertThat(RequestIds.withoutKeys("client;123456/users~" + KEY + ";654321/items~" + KEY))
        .isEqualTo("client;123456/users;654321/items");
    assertThat(RequestIds.withoutKeys("123456/a")).isEqualTo("123456/a");
    assertThat(RequestIds.withoutKeys(null)).isNull();
  }

  @Test
  void hideKeys_idRewritten_anyOtherHeaderHoldingAKeyDropped_othersKept() {
    MultiMap headers =
        MultiMap.caseInsensitiveMultiMap()
            .add("x-okapi-request-id", "123456/users~" + KEY)
            .add("X-Echo", "got 123456/users~" + KEY + " here")
            .add("Location", "/x?id=123456%2Fusers%7e" + KEY)
            .add("X-Okapi-Token", "eyJhbGciOiJIUzI1NiJ9." + "a".repeat(60) + ".sig")
            .add("X-Short", "~" + "a".repeat(31));

    RequestIds.hideKeys(headers);

    assertThat(headers.getAll("X-Okapi-Request-Id")).containsExactly("123456/users");
    assertThat(headers.names())
        .containsExactlyInAnyOrder("x-okapi-request-id", "X-Okapi-Token", "X-Short");
  }
}
