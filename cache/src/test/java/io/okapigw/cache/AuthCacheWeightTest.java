package io.okapigw.cache;

import static io.okapigw.cache.Fixtures.grant;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cache is bounded in bytes ({@code auth.cache.max-bytes}), not only in entries: 300 distinct
 * 15 KB user ids made 300 entries of 14-24 KiB each, and the default 100,000 entries would have
 * been 1.5-2.4 GB.
 */
class AuthCacheWeightTest {

  private static final long MAX_BYTES = 1024 * 1024;

  private final FakeTime time = new FakeTime();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final String moduleToken = Jwt.withoutExp("module");

  private static AuthCacheKey keyWithUser(String userId) {
    return new AuthCacheKey(Fixtures.TENANT, "GET", "/users", userId, Jwt.withoutExp("user"));
  }

  @Test
  void get_hugeDistinctKeyParts_heldWithinMaxBytes_entriesEvicted() {
    AuthCache cache =
        Fixtures.cache(AuthCacheOptions.defaults().withMaxBytes(MAX_BYTES), time, registry);
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));
    for (int i = 0; i < 300; i++) {
      cache.get(keyWithUser(i + "-" + "u".repeat(15_000)), loader).join();
    }

    AuthCacheStats stats = cache.stats();

    assertThat(stats.bytes()).isLessThanOrEqualTo(MAX_BYTES).isGreaterThan(MAX_BYTES / 2);
    assertThat(stats.size()).isBetween(30L, 70L);
    assertThat(stats.evictions()).isEqualTo(300 - stats.size());
    assertThat(registry.get("cache.bytes").gauge().value()).isEqualTo((double) stats.bytes());
  }

  @Test
  void get_smallEntries_maxSizeStillBounds() {
    AuthCache cache =
        Fixtures.cache(
            AuthCacheOptions.defaults().withMaxSize(10).withMaxBytes(MAX_BYTES), time, registry);
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));
    for (int i = 0; i < 100; i++) {
      cache.get(keyWithUser("u" + i), loader).join();
    }

    AuthCacheStats stats = cache.stats();

    assertThat(stats.size()).isEqualTo(10);
    assertThat(stats.bytes()).isEqualTo(10 * (MAX_BYTES / 10));
  }

  @Test
  void weight_countsKeyAndAnswerStrings_atLeastTheFloor() {
    AuthDecision decision =
        AuthDecision.grant(
            202, "m".repeat(1000), "user-1", "[\"p\"]", Map.of("mod-a", "a".repeat(2000)));
    CachedDecision entry = new CachedDecision(decision, 0, 0, 0, 0, 0);
    Names names = new Names(10);
    StoredKey key = StoredKey.of(keyWithUser("u".repeat(500)), names);

    int weight = new EntryWeight(1, names).of(key, entry);

    // the key's token is held as a digest, not as itself
    assertThat(weight).isGreaterThan(1000 + 2000 + 500).isLessThan(1000 + 2000 + 500 + 1000);
    assertThat(new EntryWeight(100_000, names).of(key, entry)).isEqualTo(100_000);
  }
}
