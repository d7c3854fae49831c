package io.okapigw.cache;

import static io.okapigw.cache.Fixtures.TENANT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.config.Settings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Revoking a user's or a session's decisions without a scan ({@link AuthCache#revokeUser}). */
class AuthCacheRevocationTest {

  private static final String USER = "a1b2c3d4-0000-4000-8000-000000000001";
  private static final String OTHER_USER = "a1b2c3d4-0000-4000-8000-000000000002";

  private final FakeTime time = new FakeTime();
  private final AuthCache cache = Fixtures.cache(AuthCacheOptions.defaults(), time);

  private static AuthCacheKey key(String path, String userId, String session) {
    return new AuthCacheKey(TENANT, "GET", path, userId, null, session);
  }

  private static AuthDecision grantFor(String userId) {
    return AuthDecision.grant(200, null, userId, null, Map.of());
  }

  private void put(AuthCacheKey key) {
    cache.get(key, CountingLoader.answering(grantFor(key.userId()))).join();
  }

  /**
   * @return true if the key is served from the cache: a lookup does not call the loader
   */
  private boolean isCached(AuthCacheKey key) {
    CountingLoader loader = CountingLoader.answering(grantFor(key.userId()));
    cache.get(key, loader).join();
    return loader.calls() == 0;
  }

  @Test
  void revokeUser_thatUsersDecisionsLoadedAgain_othersServed() {
    AuthCacheKey a = key("/things", USER, "s1");
    AuthCacheKey b = key("/other", USER, "s2");
    AuthCacheKey other = key("/things", OTHER_USER, "s3");
    AuthCacheKey otherTenant = new AuthCacheKey("t2", "GET", "/things", USER, null, "s1");
    put(a);
    put(b);
    put(other);
    put(otherTenant);

    cache.revokeUser(TENANT, USER, Duration.ZERO);

    assertThat(isCached(a)).isFalse();
    assertThat(isCached(b)).isFalse();
    assertThat(isCached(other)).isTrue();
    assertThat(isCached(otherTenant)).isTrue();
    assertThat(isCached(a)).as("loaded again after the revocation: cached").isTrue();
  }

  @Test
  void revokeSession_onlyThatSessionsDecisionsLoadedAgain() {
    AuthCacheKey s1 = key("/things", USER, "s1");
    AuthCacheKey s2 = key("/things", USER, "s2");
    put(s1);
    put(s2);

    cache.revokeSession(TENANT, "s1", Duration.ZERO);

    assertThat(isCached(s1)).isFalse();
    assertThat(isCached(s2)).isTrue();
  }

  @Test
  void revokeUser_loadInFlight_itsCallerAnswered_laterLookupsLoadAgain() {
    AuthCacheKey a = key("/things", USER, "s1");
    CompletableFuture<AuthDecision> pending = new CompletableFuture<>();
    CompletableFuture<AuthDecision> first = cache.get(a, CountingLoader.pending(pending));

    cache.revokeUser(TENANT, USER, Duration.ZERO);
    pending.complete(grantFor(USER));

    assertThat(first.join().userId()).isEqualTo(USER);
    assertThat(isCached(a)).as("the load started before the revocation").isFalse();
  }

  @Test
  void revokeUser_joiningALoadFromBeforeIt_loadsAgain() {
    AuthCacheKey a = key("/things", USER, "s1");
    CompletableFuture<AuthDecision> pending = new CompletableFuture<>();
    cache.get(a, CountingLoader.pending(pending));
    cache.revokeUser(TENANT, USER, Duration.ZERO);

    CountingLoader after = CountingLoader.answering(grantFor(USER));
    CompletableFuture<AuthDecision> joined = cache.get(a, after);
    pending.complete(grantFor(USER));

    assertThat(joined.join().userId()).isEqualTo(USER);
    assertThat(after.calls()).as("not the decision of the load from before").isEqualTo(1);
  }

  @Test
  void revokeSession_withSettle_notCachedUntilSettled_thenCachedAgain() {
    AuthCacheKey a = key("/things", USER, "s1");
    put(a);

    cache.revokeSession(TENANT, "s1", Duration.ofSeconds(10));

    assertThat(isCached(a)).isFalse();
    assertThat(isCached(a)).as("within the settle time: every lookup asks").isFalse();
    time.advance(Duration.ofSeconds(11));
    assertThat(isCached(a)).isFalse();
    assertThat(isCached(a)).as("settled: cached again").isTrue();
  }

  @Test
  void revokeUser_staleIfError_revokedDecisionNeverServedStale() {
    AuthCache stale =
        Fixtures.cache(
            AuthCacheOptions.from(
                Settings.of(Map.of("auth.cache.ttl", "5s", "auth.cache.stale-if-error", "60s"))),
            time);
    AuthCacheKey a = key("/things", USER, "s1");
    stale.get(a, CountingLoader.answering(grantFor(USER))).join();
    time.advance(Duration.ofSeconds(6));

    stale.revokeUser(TENANT, USER, Duration.ZERO);
    CompletableFuture<AuthDecision> answer =
        stale.get(a, CountingLoader.failing(new IllegalStateException("Keycloak down")));

    assertThat(answer).isCompletedExceptionally();
  }

  @Test
  void revoke_badArguments_refused() {
    assertThatThrownBy(() -> cache.revokeUser(TENANT, "", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> cache.revokeSession(TENANT, "", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> cache.revokeUser(TENANT, USER, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> cache.revokeSession(null, "s1", Duration.ZERO))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void revoke_countedByScope() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    AuthCache counted = Fixtures.cache(AuthCacheOptions.defaults(), time, registry);

    counted.revokeUser(TENANT, USER, Duration.ZERO);
    counted.revokeSession(TENANT, "s1", Duration.ZERO);

    assertThat(
            registry
                .counter("cache.invalidations", "cache", "auth", "scope", "revoke-user")
                .count())
        .isEqualTo(1.0);
    assertThat(
            registry
                .counter("cache.invalidations", "cache", "auth", "scope", "revoke-session")
                .count())
        .isEqualTo(1.0);
  }

  @Test
  void key_sessionDistinguishes_andPrintsWithoutToken() {
    AuthCacheKey s1 = key("/things", USER, "s1");
    assertThat(s1).isNotEqualTo(key("/things", USER, "s2"));
    assertThat(new AuthCacheKey(TENANT, "GET", "/x", USER, "tok"))
        .isEqualTo(new AuthCacheKey(TENANT, "GET", "/x", USER, "tok", null));
    assertThat(s1.toString()).contains("session=s1");
  }
}
