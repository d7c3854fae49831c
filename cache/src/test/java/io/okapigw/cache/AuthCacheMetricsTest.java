package io.okapigw.cache;

import static io.okapigw.cache.Fixtures.TENANT;
import static io.okapigw.cache.Fixtures.USER;
import static io.okapigw.cache.Fixtures.grant;
import static io.okapigw.cache.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AuthCacheMetricsTest {

  private final FakeTime time = new FakeTime();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final String token = Jwt.withoutExp("user-token");
  private final String moduleToken = Jwt.withoutExp("module-token");

  private AuthCache cache(AuthCacheOptions options) {
    return Fixtures.cache(options, time, registry);
  }

  /** A hit, a miss, a failure, a stale answer and an invalidation, so every meter has data. */
  private void exercise(AuthCache cache) {
    AuthCacheKey key = new AuthCacheKey(TENANT, "GET", "/users/{id}", USER, token);
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(Duration.ofSeconds(180));
    cache.get(key, CountingLoader.failing(new IOException("down"))).join();
    cache.get(key("other"), CountingLoader.failing(new IOException("down")));
    cache.invalidateUser(TENANT, USER);
  }

  @Test
  void create_registersCaffeineMetersUnderCacheNameAuth() {
    exercise(cache(AuthCacheOptions.defaults().withStaleIfError(Duration.ofSeconds(60))));

    Set<String> names =
        registry.getMeters().stream().map(m -> m.getId().getName()).collect(Collectors.toSet());

    assertThat(names)
        .contains(
            "cache.gets", "cache.loads", "cache.size", "cache.stale.served", "cache.invalidations");
    assertThat(registry.getMeters())
        .allSatisfy(m -> assertThat(m.getId().getTag("cache")).isEqualTo("auth"));
  }

  @Test
  void meters_afterTraffic_noTagHoldsTokenUserIdOrPath() {
    exercise(cache(AuthCacheOptions.defaults().withStaleIfError(Duration.ofSeconds(60))));

    List<String> tagValues =
        registry.getMeters().stream()
            .map(Meter::getId)
            .flatMap(id -> id.getTags().stream())
            .map(Tag::getValue)
            .toList();

    assertThat(tagValues)
        .isNotEmpty()
        .allSatisfy(
            value ->
                assertThat(value)
                    .doesNotContain(token)
                    .doesNotContain(moduleToken)
                    .doesNotContain(USER)
                    .doesNotContain("/users")
                    .doesNotContain(TENANT));
  }

  @Test
  void meters_afterTraffic_countHitsMissesAndStaleServed() {
    exercise(cache(AuthCacheOptions.defaults().withStaleIfError(Duration.ofSeconds(60))));

    assertThat(registry.get("cache.gets").tag("result", "hit").counter().count()).isEqualTo(1.0);
    assertThat(registry.get("cache.gets").tag("result", "miss").counter().count()).isEqualTo(3.0);
    assertThat(registry.get("cache.stale.served").counter().count()).isEqualTo(1.0);
    assertThat(registry.get("cache.invalidations").tag("scope", "user").counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void stats_registryDropsMeters_stillCounts() {
    AuthCache cache =
        Fixtures.cache(AuthCacheOptions.defaults(), time, new CompositeMeterRegistry());
    AuthCacheKey key = key(token);
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();

    AuthCacheStats stats = cache.stats();

    assertThat(stats.hits()).isEqualTo(1);
    assertThat(stats.misses()).isEqualTo(1);
  }

  @Test
  void get_moreKeysThanMaxSize_sizeBoundedAndEvictionsCounted() {
    AuthCache cache = cache(AuthCacheOptions.defaults().withMaxSize(10));
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));
    for (int i = 0; i < 100; i++) {
      cache.get(key("token-" + i), loader).join();
    }

    AuthCacheStats stats = cache.stats(); // runs Caffeine's pending maintenance first

    assertThat(stats.size()).isEqualTo(10);
    assertThat(stats.evictions()).isEqualTo(90);
    assertThat(registry.get("cache.size").gauge().value()).isEqualTo(10.0);
  }

  @Test
  void stats_expiredEntries_notCountedAsEvictions() {
    AuthCache cache = cache(AuthCacheOptions.defaults());
    cache.get(key(token), CountingLoader.answering(grant(moduleToken))).join();
    time.advance(Duration.ofSeconds(181));

    AuthCacheStats stats = cache.stats();

    assertThat(stats.size()).isZero();
    assertThat(stats.evictions()).isZero();
  }

  @Test
  void stats_newCache_allZero() {
    AuthCacheStats stats = cache(AuthCacheOptions.defaults()).stats();

    assertThat(stats).isEqualTo(new AuthCacheStats(0, 0, 0, 0, 0.0, 0, 0, 0, 0));
  }
}
