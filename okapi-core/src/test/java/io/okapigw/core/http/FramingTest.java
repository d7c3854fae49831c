package io.okapigw.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FramingTest {

  private static Framing ofLength(String value) {
    return Framing.of(MultiMap.caseInsensitiveMultiMap().add("Content-Length", value));
  }

  @Test
  void of_lengthOfDigits_isThatLength() {
    assertThat(ofLength("0")).isEqualTo(Framing.length(0));
    assertThat(ofLength(" 230 ")).isEqualTo(Framing.length(230));
    assertThat(ofLength("999999999999999999")).isEqualTo(Framing.length(999_999_999_999_999_999L));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", " ", "-1", "+1", "1.0", "0x10", "1 2", "1e3", "\u0661", "9999999999999999999"})
  void of_lengthNotOfOneToEighteenAsciiDigits_is400(String value) {
    assertThatThrownBy(() -> ofLength(value))
        .isInstanceOfSatisfying(HttpError.class, e -> assertThat(e.status()).isEqualTo(400));
  }

  @Test
  void of_noFramingHeaders_isNone_chunkedWins() {
    assertThat(Framing.of(MultiMap.caseInsensitiveMultiMap())).isEqualTo(Framing.NONE);
    assertThat(
            Framing.of(
                MultiMap.caseInsensitiveMultiMap()
                    .add("Transfer-Encoding", "chunked")
                    .add("Content-Length", "5")))
        .isEqualTo(Framing.CHUNKED);
  }
}
