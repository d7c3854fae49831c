package io.okapigw.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A FOLIO decision fits in half a kilobyte (issue 45): each cached decision weighed ~2.1 KB, its
 * token held three times (in the key, as the answer's {@code X-Okapi-Token} and as its {@code
 * X-Okapi-Module-Tokens} default), so the 64 MiB default held ~32,000 decisions and a provider's
 * 300 tenants × 500 staff × 30 routes could not fit. Public API only, so the same test measures the
 * cache before and after.
 */
class AuthCacheEntrySizeTest {

  private static final int USERS = 1_000;
  private static final int ROUTES = 30;

  private final FakeTime time = new FakeTime();

  /** A mod-authtoken access token of a user: about 330 characters, as FOLIO's. */
  private String token(String userId, int i) {
    return Jwt.withClaims(
        Map.of(
            "sub",
            "staff" + i + "_circulation_desk",
            "user_id",
            userId,
            "type",
            "access",
            "tenant",
            "tenant042",
            "iat",
            FakeTime.START.getEpochSecond(),
            "exp",
            FakeTime.START.plus(Duration.ofMinutes(10)).getEpochSecond()));
  }

  /** Every user's 30 routes, granted as our authtoken module and mod-authtoken answer. */
  private AuthCache filled(AuthCache cache) {
    List<String> paths = new ArrayList<>();
    List<String> permissions = new ArrayList<>();
    for (int r = 0; r < ROUTES; r++) {
      paths.add("/circulation/route-" + r + "/{id}");
      permissions.add("[\"circulation.route-" + r + ".item.get\"]");
    }
    for (int u = 0; u < USERS; u++) {
      String userId = UUID.nameUUIDFromBytes(("user" + u).getBytes()).toString();
      String token = token(userId, u);
      for (int r = 0; r < ROUTES; r++) {
        // each request brings strings of its own, as requests read from the wire do
        AuthCacheKey key =
            new AuthCacheKey(copy("tenant042"), "GET", paths.get(r), copy(userId), copy(token));
        AuthDecision grant =
            AuthDecision.grant(
                202, copy(token), copy(userId), copy(permissions.get(r)), Map.of("_", copy(token)));
        cache.get(key, k -> java.util.concurrent.CompletableFuture.completedFuture(grant)).join();
      }
    }
    return cache;
  }

  /** A string of its own, as a request read from the wire brings (not sharing its bytes). */
  private static String copy(String s) {
    return new String(s.toCharArray());
  }

  @Test
  void aFolioGrant_weighsAtMostHalfAKilobyte_theDefaultHoldsOver100k() {
    AuthCache cache = filled(Fixtures.cache(AuthCacheOptions.defaults(), time));

    AuthCacheStats stats = cache.stats();
    long perEntry = stats.bytes() / stats.size();
    System.out.printf(
        "auth cache: %d decisions weigh %d bytes, %d bytes each; the default %d MiB holds %d%n",
        stats.size(),
        stats.bytes(),
        perEntry,
        cache.options().maxBytes() >> 20,
        cache.options().maxBytes() / perEntry);

    assertThat(stats.size()).isEqualTo(USERS * ROUTES);
    assertThat(perEntry).as("bytes per decision").isLessThanOrEqualTo(512);
    assertThat(Math.min(cache.options().maxSize(), cache.options().maxBytes() / perEntry))
        .as("decisions the default holds")
        .isGreaterThan(100_000);
  }

  /**
   * The weight is an estimate; the heap the entries hold, measured after full collections, is
   * within a fifth of it (and printed beside it).
   */
  @Test
  void heapHeld_perDecision_closeToItsWeight() {
    long before = usedAfterGc();
    AuthCache cache = filled(Fixtures.cache(AuthCacheOptions.defaults(), time));
    long after = usedAfterGc();

    AuthCacheStats stats = cache.stats();
    long weighed = stats.bytes() / stats.size();
    long held = (after - before) / stats.size();
    System.out.printf(
        "auth cache: %d decisions hold %d bytes of heap, %d each (weighed %d)%n",
        stats.size(), after - before, held, weighed);

    assertThat(held).as("heap per decision").isLessThanOrEqualTo(weighed * 6 / 5);
  }

  private static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
