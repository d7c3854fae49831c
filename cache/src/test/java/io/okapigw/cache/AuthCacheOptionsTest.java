package io.okapigw.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Settings;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AuthCacheOptionsTest {

  @Test
  void defaults_theDeclaredOnes() {
    AuthCacheOptions options = AuthCacheOptions.defaults();

    assertThat(options.enabled()).isTrue();
    assertThat(options.ttl()).isEqualTo(Duration.ofSeconds(180));
    assertThat(options.maxSize()).isEqualTo(250_000L);
    assertThat(options.maxBytes()).isEqualTo(64L * 1024 * 1024);
    assertThat(options.negativeTtl()).isEqualTo(Duration.ZERO);
    assertThat(options.staleIfError()).isEqualTo(Duration.ZERO);
    assertThat(options.ttl()).isEqualTo(AuthCacheOptions.TTL.defaultValue());
  }

  @Test
  void withers_changeOneSettingEach_originalUnchanged() {
    AuthCacheOptions original = AuthCacheOptions.defaults();
    AuthCacheOptions changed =
        original
            .withEnabled(false)
            .withMaxSize(5)
            .withMaxBytes(1024 * 1024)
            .withTtl(Duration.ofSeconds(7))
            .withNegativeTtl(Duration.ofSeconds(2))
            .withStaleIfError(Duration.ofMinutes(1));

    assertThat(changed)
        .isEqualTo(
            new AuthCacheOptions(
                false,
                Duration.ofSeconds(7),
                5,
                1024 * 1024,
                Duration.ofSeconds(2),
                Duration.ofMinutes(1)));
    assertThat(original).isEqualTo(AuthCacheOptions.defaults());
    assertThat(changed.withMaxSize(6)).isNotEqualTo(changed);
  }

  static Stream<Arguments> badValuesInCode() {
    AuthCacheOptions d = AuthCacheOptions.defaults();
    return Stream.of(
        Arguments.of(
            (Runnable) () -> d.withTtl(Duration.ofSeconds(-1)),
            "auth.cache.ttl must be between 1ms and 365d, was '-1s'"),
        Arguments.of(
            (Runnable) () -> d.withTtl(Duration.ZERO),
            "auth.cache.ttl must be between 1ms and 365d, was '0'"),
        Arguments.of(
            (Runnable) () -> d.withTtl(null),
            "auth.cache.ttl must be between 1ms and 365d, was 'null'"),
        Arguments.of(
            (Runnable) () -> d.withTtl(Duration.ofDays(400)),
            "auth.cache.ttl must be between 1ms and 365d, was '400d'"),
        Arguments.of(
            (Runnable) () -> d.withMaxSize(0),
            "auth.cache.max-size must be between 1 and 2147483647, was '0'"),
        Arguments.of(
            (Runnable) () -> d.withMaxBytes(1000),
            "auth.cache.max-bytes must be between 64KB and 64GB, was '1000'"),
        Arguments.of(
            (Runnable) () -> d.withNegativeTtl(Duration.ofMillis(-500)),
            "auth.cache.negative-ttl must be between 0 and 365d, was '-500ms'"),
        Arguments.of(
            (Runnable) () -> d.withStaleIfError(Duration.ofMinutes(-3)),
            "auth.cache.stale-if-error must be between 0 and 365d, was '-3m'"));
  }

  @ParameterizedTest
  @MethodSource("badValuesInCode")
  void invalidValueInCode_throwsNamingTheSetting(Runnable create, String message) {
    assertThatThrownBy(create::run)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void zeroForOptionalDurations_accepted() {
    AuthCacheOptions options =
        AuthCacheOptions.defaults().withNegativeTtl(Duration.ZERO).withStaleIfError(Duration.ZERO);

    assertThat(options.negativeTtl()).isZero();
    assertThat(options.staleIfError()).isZero();
  }

  @Test
  void from_allKeys_applied() {
    AuthCacheOptions options =
        AuthCacheOptions.from(
            Settings.of(
                Map.of(
                    "auth.cache.enabled", "off",
                    "auth.cache.ttl", "1d",
                    "auth.cache.max-size", "5000",
                    "auth.cache.max-bytes", "16MB",
                    "auth.cache.negative-ttl", "5s",
                    "auth.cache.stale-if-error", "10m")));

    assertThat(options)
        .isEqualTo(
            AuthCacheOptions.defaults()
                .withEnabled(false)
                .withTtl(Duration.ofDays(1))
                .withMaxSize(5000)
                .withMaxBytes(16L * 1024 * 1024)
                .withNegativeTtl(Duration.ofSeconds(5))
                .withStaleIfError(Duration.ofMinutes(10)));
  }

  @Test
  void from_otherSettings_ignored() {
    Settings others = Settings.of(Map.of("port", "9130", "storage", "postgres"));

    assertThat(AuthCacheOptions.from(others)).isEqualTo(AuthCacheOptions.defaults());
  }

  static Stream<Arguments> badValues() {
    return Stream.of(
        Arguments.of(
            "auth.cache.ttl",
            "180",
            "auth.cache.ttl must be a duration: a whole number and a unit ms, s, m, h or d"),
        Arguments.of("auth.cache.ttl", "0", "auth.cache.ttl must be between 1ms and 365d, was '0'"),
        Arguments.of(
            "auth.cache.stale-if-error",
            "999d",
            "auth.cache.stale-if-error must be between 0 and 365d, was '999d'"),
        Arguments.of(
            "auth.cache.enabled",
            "maybe",
            "auth.cache.enabled must be true or false (also yes/no, on/off), was 'maybe'"),
        Arguments.of(
            "auth.cache.max-size",
            "lots",
            "auth.cache.max-size must be a whole number, was 'lots'"),
        Arguments.of(
            "auth.cache.max-size", "-1", "auth.cache.max-size must be between 1 and 2147483647"));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void from_badValue_throwsNamingTheKey(String key, String value, String message) {
    assertThatThrownBy(() -> AuthCacheOptions.from(Settings.of(Map.of(key, value))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void toString_showsEverySetting() {
    assertThat(AuthCacheOptions.defaults().toString())
        .isEqualTo(
            "AuthCacheOptions{enabled=true,"
                + " ttl=3m, maxSize=250000, maxBytes=64MB, negativeTtl=0, staleIfError=0}");
  }
}
