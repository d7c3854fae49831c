package io.okapigw.cache;

import static io.okapigw.cache.Fixtures.USER;
import static io.okapigw.cache.Fixtures.grant;
import static io.okapigw.cache.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AuthCacheExpiryTest {

  private static final Duration TTL = Duration.ofSeconds(180);

  private final FakeTime time = new FakeTime();
  private final AuthCache cache = Fixtures.cache(AuthCacheOptions.defaults().withTtl(TTL), time);
  private final String moduleToken = Jwt.withoutExp("module");

  /** Loads once, then reports whether the entry is still served at {@code offset}. */
  private boolean servedAfter(AuthCacheKey key, AuthDecision decision, Duration offset) {
    CountingLoader loader = CountingLoader.answering(decision);
    cache.get(key, loader).join();
    time.advance(offset);
    cache.get(key, loader).join();
    return loader.calls() == 1;
  }

  private String tokenExpiringIn(Duration d) {
    return Jwt.expiringAt(time.now().plus(d), "user");
  }

  /**
   * An {@code exp} that is not a JSON number (RFC 7519: a NumericDate) cannot bound the entry: an
   * auth module reading {@code "exp": "<seconds>"} as a date (JJWT does) would have the entry
   * served past the token's end. Such a token is never cached.
   */
  @ParameterizedTest
  @ValueSource(strings = {"\"%d\"", "\"soon\"", "\"2020-01-01T00:00:00Z\"", "null", "[%d]", "{}"})
  void get_expPresentButNotANumber_neverCached(String exp) {
    String claims =
        "{\"sub\":\"u\",\"exp\":"
            + exp.formatted(time.now().plus(Duration.ofSeconds(30)).getEpochSecond())
            + "}";
    AuthCacheKey key = key(Jwt.withClaimsJson(claims));

    assertThat(servedAfter(key, grant(moduleToken), Duration.ofSeconds(1))).isFalse();
  }

  @Test
  void get_tokenExpiresBeforeTtl_servedUntilExp() {
    AuthCacheKey key = key(tokenExpiringIn(Duration.ofSeconds(30)));

    assertThat(servedAfter(key, grant(moduleToken), Duration.ofSeconds(29))).isTrue();
  }

  @Test
  void get_tokenExpiresBeforeTtl_goneAtExp() {
    AuthCacheKey key = key(tokenExpiringIn(Duration.ofSeconds(30)));

    assertThat(servedAfter(key, grant(moduleToken), Duration.ofSeconds(30))).isFalse();
  }

  @Test
  void get_ttlShorterThanExp_servedUntilTtl() {
    AuthCacheKey key = key(tokenExpiringIn(Duration.ofHours(1)));

    assertThat(servedAfter(key, grant(moduleToken), TTL.minusNanos(1))).isTrue();
  }

  @Test
  void get_ttlShorterThanExp_goneAtTtl() {
    AuthCacheKey key = key(tokenExpiringIn(Duration.ofHours(1)));

    assertThat(servedAfter(key, grant(moduleToken), TTL)).isFalse();
  }

  @Test
  void get_tokenWithoutExp_servedForTtl() {
    AuthCacheKey key = key(Jwt.withoutExp("user"));
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));

    cache.get(key, loader).join();
    time.advance(TTL.minusNanos(1));
    cache.get(key, loader).join();
    assertThat(loader.calls()).isEqualTo(1);
    time.advance(Duration.ofNanos(1));
    cache.get(key, loader).join();

    assertThat(loader.calls()).isEqualTo(2);
  }

  @ParameterizedTest
  @ValueSource(strings = {"opaque-token", "a.!!!.c", "a.bm90IGpzb24.c", ""})
  void get_tokenWithoutUsableExp_servedForTtl(String token) {
    assertThat(servedAfter(key(token), grant(moduleToken), TTL.minusNanos(1))).isTrue();
  }

  @Test
  void get_expiredToken_neverCached() {
    AuthCacheKey key = key(Jwt.expiringAt(time.now().minusSeconds(1), "user"));
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));

    AuthDecision first = cache.get(key, loader).join();
    cache.get(key, loader).join();

    assertThat(loader.calls()).isEqualTo(2);
    assertThat(first.expiresAt()).isNull();
    assertThat(cache.stats().size()).isZero();
  }

  @Test
  void get_tokenExpiringNow_neverCached() {
    AuthCacheKey key = key(Jwt.expiringAt(time.now(), "user"));

    assertThat(servedAfter(key, grant(moduleToken), Duration.ZERO)).isFalse();
  }

  @Test
  void get_moduleTokenExpiresFirst_goneAtModuleTokenExp() {
    AuthCacheKey key = key(tokenExpiringIn(Duration.ofHours(1)));
    String shortModuleToken = Jwt.expiringAt(time.now().plusSeconds(20), "module");
    AuthDecision decision = AuthDecision.grant(202, shortModuleToken, USER, "[]", Map.of());

    assertThat(servedAfter(key, decision, Duration.ofSeconds(20))).isFalse();
  }

  @Test
  void get_moduleTokensEntryExpiresFirst_goneAtItsExp() {
    AuthCacheKey key = key(Jwt.withoutExp("user"));
    String shortToken = Jwt.expiringAt(time.now().plusSeconds(20), "mod-users");
    AuthDecision decision =
        AuthDecision.grant(
            202, moduleToken, USER, "[]", Map.of("_", moduleToken, "mod-users-19.0.0", shortToken));

    assertThat(servedAfter(key, decision, Duration.ofSeconds(20))).isFalse();
  }

  @Test
  void get_cachedDecision_expiresAtIsMinOfTtlAndExp() {
    Instant exp = time.now().plusSeconds(60);
    AuthCacheKey shortKey = key(Jwt.expiringAt(exp, "user"));
    AuthCacheKey longKey = key(tokenExpiringIn(Duration.ofHours(1)));

    CountingLoader loader = CountingLoader.answering(grant(moduleToken));
    AuthDecision expBound = cache.get(shortKey, loader).join();
    AuthDecision ttlBound = cache.get(longKey, loader).join();

    assertThat(expBound.expiresAt()).isEqualTo(exp);
    assertThat(ttlBound.expiresAt()).isEqualTo(time.now().plus(TTL));
  }

  @Test
  void create_tickerOnly_wallClockFollowsTicker() {
    AuthCache tickerOnly =
        AuthCache.create(AuthCacheOptions.defaults(), time, new SimpleMeterRegistry());
    Instant exp = Instant.now().plusSeconds(30).plusMillis(999);
    AuthCacheKey key = key(Jwt.expiringAt(exp, "user")); // exp truncated to whole seconds
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));

    tickerOnly.get(key, loader).join();
    time.advance(Duration.ofSeconds(29));
    tickerOnly.get(key, loader).join();
    assertThat(loader.calls()).isEqualTo(1);
    time.advance(Duration.ofSeconds(3));
    tickerOnly.get(key, loader).join();

    assertThat(loader.calls()).isEqualTo(2);
  }
}
