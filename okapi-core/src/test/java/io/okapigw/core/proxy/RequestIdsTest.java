package io.okapigw.core.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Okapi's request ids: six digits and the first path segment, a caller's id chained before. */
class RequestIdsTest {

  @Test
  void next_withoutIncoming_isSixDigitsAndTheFirstSegment() {
    assertThat(RequestIds.next(null, "/circulation/check-out-by-barcode"))
        .matches("\\d{6}/circulation");
    assertThat(RequestIds.next("  ", "/users")).matches("\\d{6}/users");
  }

  @Test
  void next_withIncoming_chainsOwnIdAfterTheCallers() {
    assertThat(RequestIds.next("123456/circulation", "/item-storage/items/1"))
        .matches("123456/circulation;\\d{6}/item-storage");
  }

  @Test
  void next_withOverlongIncoming_startsAFreshChain() {
    assertThat(RequestIds.next("1".repeat(2049), "/users")).matches("\\d{6}/users");
    assertThat(RequestIds.next("1".repeat(2048), "/users")).hasSize(2048 + 1 + 6 + 6);
  }

  @Test
  void next_keepsLeadingZeroesOfTheDigits() {
    for (int i = 0; i < 2000; i++) {
      assertThat(RequestIds.next(null, "/a")).hasSize(8).matches("\\d{6}/a");
    }
  }
}
