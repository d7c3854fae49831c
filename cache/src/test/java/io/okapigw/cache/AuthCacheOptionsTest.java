package io.okapigw.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AuthCacheOptionsTest {

  private static Map<String, Object> settings(String key, Object value) {
    Map<String, Object> map = new HashMap<>();
    map.put(key, value);
    return map;
  }

  @Test
  void constructor_noArgs_hasDefaults() {
    AuthCacheOptions options = new AuthCacheOptions();

    assertThat(options.isEnabled()).isTrue();
    assertThat(options.getTtl()).isEqualTo(Duration.ofSeconds(180));
    assertThat(options.getMaxSize()).isEqualTo(100_000L);
    assertThat(options.getNegativeTtl()).isEqualTo(Duration.ZERO);
    assertThat(options.getStaleIfError()).isEqualTo(Duration.ZERO);
  }

  @Test
  void copyConstructor_copiesAndIsIndependent() {
    AuthCacheOptions original =
        new AuthCacheOptions()
            .setEnabled(false)
            .setMaxSize(5)
            .setTtl(Duration.ofSeconds(7))
            .setNegativeTtl(Duration.ofSeconds(2))
            .setStaleIfError(Duration.ofMinutes(1));

    AuthCacheOptions copy = new AuthCacheOptions(original);
    original.setMaxSize(6);

    assertThat(copy.getMaxSize()).isEqualTo(5);
    assertThat(copy).isEqualTo(new AuthCacheOptions(original).setMaxSize(5));
    assertThat(copy.hashCode()).isEqualTo(new AuthCacheOptions(original).setMaxSize(5).hashCode());
  }

  static Stream<Arguments> badSetters() {
    return Stream.of(
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setTtl(Duration.ofSeconds(-1)),
            "auth.cache.ttl must be > 0, was -1s"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setTtl(Duration.ZERO),
            "auth.cache.ttl must be > 0, was 0s"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setTtl(null),
            "auth.cache.ttl must not be null"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setTtl(Duration.ofDays(400)),
            "auth.cache.ttl must be <= 365d, was 400d"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setMaxSize(0),
            "auth.cache.max-size must be > 0, was 0"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setNegativeTtl(Duration.ofMillis(-500)),
            "auth.cache.negative-ttl must be >= 0, was -500ms"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setStaleIfError(Duration.ofMinutes(-3)),
            "auth.cache.stale-if-error must be >= 0, was -3m"));
  }

  @ParameterizedTest
  @MethodSource("badSetters")
  void setter_invalidValue_throwsNamingTheSetting(Runnable setter, String message) {
    assertThatThrownBy(setter::run)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void setter_zeroForOptionalDurations_accepted() {
    AuthCacheOptions options =
        new AuthCacheOptions().setNegativeTtl(Duration.ZERO).setStaleIfError(Duration.ZERO);

    assertThat(options.getNegativeTtl()).isZero();
    assertThat(options.getStaleIfError()).isZero();
  }

  static Stream<Arguments> durations() {
    return Stream.of(
        Arguments.of("180s", Duration.ofSeconds(180)),
        Arguments.of("3m", Duration.ofMinutes(3)),
        Arguments.of("500ms", Duration.ofMillis(500)),
        Arguments.of("1h", Duration.ofHours(1)),
        Arguments.of("2d", Duration.ofDays(2)),
        Arguments.of(" 90 S ", Duration.ofSeconds(90)),
        Arguments.of("1.5s", Duration.ofMillis(1500)),
        Arguments.of("250", Duration.ofSeconds(250)),
        Arguments.of("PT2M", Duration.ofMinutes(2)),
        Arguments.of(180, Duration.ofSeconds(180)),
        Arguments.of(30L, Duration.ofSeconds(30)),
        Arguments.of(0.25, Duration.ofMillis(250)),
        Arguments.of(Duration.ofSeconds(42), Duration.ofSeconds(42)));
  }

  @ParameterizedTest
  @MethodSource("durations")
  void fromSettings_durationForms_parsed(Object raw, Duration expected) {
    AuthCacheOptions options = AuthCacheOptions.fromSettings(settings("auth.cache.ttl", raw));

    assertThat(options.getTtl()).isEqualTo(expected);
  }

  @Test
  void fromSettings_allKeys_applied() {
    AuthCacheOptions options =
        AuthCacheOptions.fromSettings(
            Map.of(
                "auth.cache.enabled", "false",
                "auth.cache.ttl", "60s",
                "auth.cache.max-size", "5000",
                "auth.cache.negative-ttl", 5,
                "auth.cache.stale-if-error", "10m"));

    assertThat(options)
        .isEqualTo(
            new AuthCacheOptions()
                .setEnabled(false)
                .setTtl(Duration.ofSeconds(60))
                .setMaxSize(5000)
                .setNegativeTtl(Duration.ofSeconds(5))
                .setStaleIfError(Duration.ofMinutes(10)));
  }

  @Test
  void fromSettings_otherSettings_ignored() {
    AuthCacheOptions options =
        AuthCacheOptions.fromSettings(
            Map.of("http.port", 9130, "storage", "postgres", "auth.cachex", "?"));

    assertThat(options).isEqualTo(new AuthCacheOptions());
  }

  @Test
  void fromSettings_unknownAuthCacheKey_throwsNamingIt() {
    assertThatThrownBy(() -> AuthCacheOptions.fromSettings(Map.of("auth.cache.tll", "60s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unknown setting auth.cache.tll, known: auth.cache.enabled");
  }

  static Stream<Arguments> badValues() {
    return Stream.of(
        Arguments.of(
            "auth.cache.ttl",
            "abc",
            "auth.cache.ttl must be a duration such as 180s, 3m or 500ms (a bare number is"
                + " seconds), was 'abc'"),
        Arguments.of("auth.cache.ttl", "10 weeks", "auth.cache.ttl must be a duration"),
        Arguments.of("auth.cache.ttl", Double.NaN, "auth.cache.ttl must be a duration"),
        Arguments.of("auth.cache.ttl", "PTxM", "auth.cache.ttl must be a duration"),
        Arguments.of("auth.cache.ttl", "-1s", "auth.cache.ttl must be > 0, was -1s"),
        Arguments.of("auth.cache.ttl", null, "auth.cache.ttl must not be null"),
        Arguments.of("auth.cache.negative-ttl", "-5", "auth.cache.negative-ttl must be >= 0"),
        Arguments.of("auth.cache.stale-if-error", "999d", "auth.cache.stale-if-error must be <="),
        Arguments.of(
            "auth.cache.enabled", "yes", "auth.cache.enabled must be true or false, was 'yes'"),
        Arguments.of(
            "auth.cache.max-size", "lots", "auth.cache.max-size must be an integer, was 'lots'"),
        Arguments.of("auth.cache.max-size", 10.5, "auth.cache.max-size must be an integer"),
        Arguments.of("auth.cache.max-size", -1, "auth.cache.max-size must be > 0, was -1"));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void fromSettings_badValue_throwsNamingTheKey(String key, Object value, String message) {
    assertThatThrownBy(() -> AuthCacheOptions.fromSettings(settings(key, value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void fromSettings_integralNumbersForMaxSize_accepted() {
    assertThat(AuthCacheOptions.fromSettings(Map.of("auth.cache.max-size", 5000.0)).getMaxSize())
        .isEqualTo(5000);
    assertThat(AuthCacheOptions.fromSettings(Map.of("auth.cache.max-size", 7)).getMaxSize())
        .isEqualTo(7);
  }

  @Test
  void toMap_readBackByFromSettings_equalOptions() {
    AuthCacheOptions options =
        new AuthCacheOptions()
            .setEnabled(false)
            .setMaxSize(42)
            .setTtl(Duration.ofMillis(1500))
            .setNegativeTtl(Duration.ofSeconds(20))
            .setStaleIfError(Duration.ofHours(2));

    Map<String, Object> map = options.toMap();

    assertThat(map)
        .containsEntry("auth.cache.ttl", "1500ms")
        .containsEntry("auth.cache.negative-ttl", "20s")
        .containsEntry("auth.cache.stale-if-error", "2h")
        .containsEntry("auth.cache.max-size", 42L)
        .containsEntry("auth.cache.enabled", false);
    assertThat(AuthCacheOptions.fromSettings(map)).isEqualTo(options);
  }

  @Test
  void toString_showsEverySetting() {
    assertThat(new AuthCacheOptions().toString())
        .isEqualTo(
            "AuthCacheOptions{enabled=true,"
                + " ttl=3m, maxSize=100000, negativeTtl=0s, staleIfError=0s}");
  }
}
