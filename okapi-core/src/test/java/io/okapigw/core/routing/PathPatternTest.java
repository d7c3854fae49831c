package io.okapigw.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Okapi's path patterns: what they match, and in time linear in the path, whatever the pattern. */
class PathPatternTest {

  @ParameterizedTest
  @CsvSource({
    "/items, /items, true",
    "/items, /items/, false",
    "/items, /item, false",
    "/items*, /items, true",
    "/items*, /items/1/x, true",
    "/items/{id}, /items/1, true",
    "/items/{id}, /items/, false",
    "/items/{id}, /items/1/x, false",
    "/items/{id}/x, /items/1/x, true",
    "/{a}-{b}, /x-y-z, true",
    "/{a}-{b}, /x, false",
    "/a*b, /ab, true",
    "/a*b, /a/x/b, true",
    "/a*b, /a/x/c, false",
    "/*/x, /a/b/x, true",
    "/*, /, true",
    "/x/{id}*, /x/1, true",
    "/x/{id}*, /x/, false",
    "/x/*/y/{id}, /x/a/b/y/c, true",
    "/x/*/y/{id}, /x/a/b/y/c/d, false"
  })
  void matches_asOkapiPatternsRead(String pattern, String path, boolean expected) {
    assertThat(PathPattern.compile(pattern).matches(path))
        .as(pattern + " ~ " + path)
        .isEqualTo(expected);
  }

  /**
   * A regular expression built from a pattern with many {@code *} backtracks exponentially on a
   * path that almost matches: one 40-character path held an event loop for seconds.
   */
  @Test
  void manyStars_nearMiss_answeredInLinearTime() {
    PathPattern pattern = PathPattern.compile("/" + "*a".repeat(25) + "*b");
    String path = "/" + "a".repeat(40);
    assertTimeoutPreemptively(
        Duration.ofMillis(500),
        () -> {
          for (int i = 0; i < 1000; i++) {
            assertThat(pattern.matches(path)).isFalse();
          }
        });
    PathPattern params = PathPattern.compile("/" + "{p}-".repeat(20) + "x");
    String dashes = "/" + "a-".repeat(40);
    assertTimeoutPreemptively(
        Duration.ofMillis(500),
        () -> {
          for (int i = 0; i < 1000; i++) {
            assertThat(params.matches(dashes)).isFalse();
          }
        });
    assertThat(pattern.matches(path + "b")).isTrue();
  }
}
