package io.okapigw.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.Random;
import java.util.regex.Pattern;
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
   * The automaton accepts exactly what the regular expression Okapi patterns mean accepts ({@code
   * {name}} as {@code [^/]+}, {@code *} as {@code .*}), for random short patterns and paths.
   */
  @Test
  void matches_sameAsTheRegularExpression_forRandomPatternsAndPaths() {
    long seed = new SecureRandom().nextLong();
    Random random = new Random(seed);
    String[] patternParts = {"a", "b", "/", "*", "{p}"};
    String[] pathParts = {"a", "b", "/"};
    for (int i = 0; i < 20_000; i++) {
      String pattern = "/" + join(random, patternParts, random.nextInt(7));
      String path = "/" + join(random, pathParts, random.nextInt(9));
      boolean expected = regex(pattern).matcher(path).matches();
      assertThat(PathPattern.compile(pattern).matches(path))
          .as("seed %d: %s ~ %s", seed, pattern, path)
          .isEqualTo(expected);
    }
  }

  private static String join(Random random, String[] parts, int n) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; i++) {
      out.append(parts[random.nextInt(parts.length)]);
    }
    return out.toString();
  }

  private static Pattern regex(String pattern) {
    String quoted = pattern.replace("{p}", "\u0000").replace("*", "\u0001").replace("/", "\\/");
    return Pattern.compile(quoted.replace("\u0000", "[^/]+").replace("\u0001", ".*"));
  }

  /**
   * A regular expression built from a pattern with many {@code *} backtracks exponentially on a
   * path that almost matches: one 40-character path held an event loop for seconds. The matcher's
   * work is counted, not timed (a stopwatch fails on a busy machine): at most a constant times path
   * times pattern, and growing as the path does, not faster.
   */
  @ParameterizedTest
  @CsvSource({"*a, *b, a", "{p}-, x, a-", "*a/{p}, *b, a/"})
  void manyStars_nearMiss_workLinearInThePath(String repeated, String last, String filler) {
    String pattern = "/" + repeated.repeat(25) + last;
    PathPattern compiled = PathPattern.compile(pattern);
    long previous = 0;
    for (int n = 40; n <= 640; n *= 2) {
      String path = "/" + filler.repeat(n);
      PathPattern.Work work = new PathPattern.Work();
      assertThat(compiled.matches(path, work)).as(pattern + " ~ " + path).isFalse();
      assertThat(compiled.matches(path)).isFalse();
      assertThat(work.count)
          .as("work for %s on a path of %d characters", pattern, path.length())
          .isLessThanOrEqualTo(4L * (path.length() + 1) * (pattern.length() + 1));
      if (previous > 0) {
        assertThat((double) work.count / previous)
            .as("work growth when the path doubles to %d characters", path.length())
            .isLessThan(2.5);
      }
      previous = work.count;
    }
    assertThat(
            PathPattern.compile("/" + "*a".repeat(25) + "*b").matches("/" + "a".repeat(40) + "b"))
        .isTrue();
  }
}
