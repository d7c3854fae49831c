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
  void constructor_noArgs_hasDefaults() {
    AuthCacheOptions options = new AuthCacheOptions();

    assertThat(options.isEnabled()).isTrue();
    assertThat(options.getTtl()).isEqualTo(Duration.ofSeconds(180));
    assertThat(options.getMaxSize()).isEqualTo(100_000L);
    assertThat(options.getMaxBytes()).isEqualTo(64L * 1024 * 1024);
    assertThat(options.getNegativeTtl()).isEqualTo(Duration.ZERO);
    assertThat(options.getStaleIfError()).isEqualTo(Duration.ZERO);
  }

  @Test
  void copyConstructor_copiesAndIsIndependent() {
    AuthCacheOptions original =
        new AuthCacheOptions()
            .setEnabled(false)
            .setMaxSize(5)
            .setMaxBytes(1024 * 1024)
            .setTtl(Duration.ofSeconds(7))
            .setNegativeTtl(Duration.ofSeconds(2))
            .setStaleIfError(Duration.ofMinutes(1));

    AuthCacheOptions copy = new AuthCacheOptions(original);
    original.setMaxSize(6);

    assertThat(copy.getMaxSize()).isEqualTo(5);
    assertThat(copy.getMaxBytes()).isEqualTo(1024 * 1024);
    assertThat(copy).isEqualTo(new AuthCacheOptions(original).setMaxSize(5));
    assertThat(copy.hashCode()).isEqualTo(new AuthCacheOptions(original).setMaxSize(5).hashCode());
  }

  static Stream<Arguments> badSetters() {
    return Stream.of(
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setTtl(Duration.ofSeconds(-1)),
            "auth.cache.ttl must be between 1ms and 365d, was '-1s'"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setTtl(Duration.ZERO),
            "auth.cache.ttl must be between 1ms and 365d, was '0'"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setTtl(null),
            "auth.cache.ttl must be between 1ms and 365d, was 'null'"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setTtl(Duration.ofDays(400)),
            "auth.cache.ttl must be between 1ms and 365d, was '400d'"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setMaxSize(0),
            "auth.cache.max-size must be between 1 and 2147483647, was '0'"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setMaxBytes(1000),
            "auth.cache.max-bytes must be between 64KB and 64GB, was '1000'"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setNegativeTtl(Duration.ofMillis(-500)),
            "auth.cache.negative-ttl must be between 0 and 365d, was '-500ms'"),
        Arguments.of(
            (Runnable) () -> new AuthCacheOptions().setStaleIfError(Duration.ofMinutes(-3)),
            "auth.cache.stale-if-error must be between 0 and 365d, was '-3m'"));
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
            new AuthCacheOptions()
                .setEnabled(false)
                .setTtl(Duration.ofDays(1))
                .setMaxSize(5000)
                .setMaxBytes(16L * 1024 * 1024)
                .setNegativeTtl(Duration.ofSeconds(5))
                .setStaleIfError(Duration.ofMinutes(10)));
  }

  @Test
  void from_otherSettings_ignored() {
    Settings others = Settings.of(Map.of("port", "9130", "storage", "postgres"));

    assertThat(AuthCacheOptions.from(others)).isEqualTo(new AuthCacheOptions());
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
    assertThat(new AuthCacheOptions().toString())
        .isEqualTo(
            "AuthCacheOptions{enabled=true,"
                + " ttl=3m, maxSize=100000, maxBytes=64MB, negativeTtl=0, staleIfError=0}");
  }
}
