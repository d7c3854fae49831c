package io.okapigw.cache;

import static io.okapigw.cache.Fixtures.TENANT;
import static io.okapigw.cache.Fixtures.USER;
import static io.okapigw.cache.Fixtures.grant;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class AuthCacheInvalidationTest {

  private static final String OTHER_USER = "a1b2c3d4-0000-4000-8000-000000000002";

  private final FakeTime time = new FakeTime();
  private final AuthCache cache = Fixtures.cache(AuthCacheOptions.defaults(), time);
  private final String moduleToken = Jwt.withoutExp("module");

  private static AuthCacheKey key(String tenant, String path, String userId, String token) {
    return new AuthCacheKey(tenant, "GET", path, userId, token);
  }

  private void put(AuthCacheKey key, AuthDecision decision) {
    cache.get(key, CountingLoader.answering(decision)).join();
  }

  /**
   * @return true if the key is still cached: a lookup does not call the loader
   */
  private boolean isCached(AuthCacheKey key) {
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));
    cache.get(key, loader).join();
    return loader.calls() == 0;
  }

  private AuthDecision grantFor(String userId) {
    return AuthDecision.grant(202, moduleToken, userId, "[]", Map.of());
  }

  @Test
  void invalidateTenant_removesOnlyThatTenantsEntries() {
    AuthCacheKey a = key(TENANT, "/users", "", "t1");
    AuthCacheKey b = key(TENANT, "/groups", "", "t1");
    AuthCacheKey other = key("other", "/users", "", "t1");
    put(a, grant(moduleToken));
    put(b, grant(moduleToken));
    put(other, grant(moduleToken));

    long removed = cache.invalidateTenant(TENANT);

    assertThat(removed).isEqualTo(2);
    assertThat(isCached(a)).isFalse();
    assertThat(isCached(b)).isFalse();
    assertThat(isCached(other)).isTrue();
  }

  @Test
  void invalidateUser_keyCarriesUserId_removed() {
    AuthCacheKey mine = key(TENANT, "/users", USER, "t1");
    AuthCacheKey theirs = key(TENANT, "/users", OTHER_USER, "t2");
    put(mine, grantFor(OTHER_USER));
    put(theirs, grantFor(OTHER_USER));

    long removed = cache.invalidateUser(TENANT, USER);

    assertThat(removed).isEqualTo(1);
    assertThat(isCached(mine)).isFalse();
    assertThat(isCached(theirs)).isTrue();
  }

  @Test
  void invalidateUser_onlyDecisionCarriesUserId_removed() {
    AuthCacheKey noUserHeader = key(TENANT, "/users", "", "t1");
    AuthCacheKey someoneElse = key(TENANT, "/users", "", "t2");
    put(noUserHeader, grantFor(USER));
    put(someoneElse, grantFor(OTHER_USER));

    long removed = cache.invalidateUser(TENANT, USER);

    assertThat(removed).isEqualTo(1);
    assertThat(isCached(noUserHeader)).isFalse();
    assertThat(isCached(someoneElse)).isTrue();
  }

  @Test
  void invalidateUser_sameUserIdInOtherTenant_kept() {
    AuthCacheKey otherTenant = key("other", "/users", USER, "t1");
    put(otherTenant, grantFor(USER));

    long removed = cache.invalidateUser(TENANT, USER);

    assertThat(removed).isZero();
    assertThat(isCached(otherTenant)).isTrue();
  }

  @Test
  void invalidateToken_removesEntriesKeyedByToken() {
    AuthCacheKey users = key(TENANT, "/users", "", "t1");
    AuthCacheKey groups = key(TENANT, "/groups", "", "t1");
    AuthCacheKey other = key(TENANT, "/users", "", "t2");
    put(users, grant(moduleToken));
    put(groups, grant(moduleToken));
    put(other, grant(moduleToken));

    long removed = cache.invalidateToken("t1");

    assertThat(removed).isEqualTo(2);
    assertThat(isCached(users)).isFalse();
    assertThat(isCached(groups)).isFalse();
    assertThat(isCached(other)).isTrue();
  }

  @Test
  void invalidateToken_decisionHandsOutToken_removed() {
    AuthCacheKey viaModuleToken = key(TENANT, "/users", "", "t1");
    AuthCacheKey viaModuleTokens = key(TENANT, "/groups", "", "t2");
    put(viaModuleToken, AuthDecision.grant(202, "revoked", USER, "[]", Map.of()));
    put(viaModuleTokens, AuthDecision.grant(202, "m", USER, "[]", Map.of("mod-x", "revoked")));

    long removed = cache.invalidateToken("revoked");

    assertThat(removed).isEqualTo(2);
  }

  @Test
  void invalidateAll_removesEverything() {
    put(key(TENANT, "/users", "", "t1"), grant(moduleToken));
    put(key("other", "/users", USER, "t2"), grant(moduleToken));

    long removed = cache.invalidateAll();

    assertThat(removed).isEqualTo(2);
    assertThat(cache.stats().size()).isZero();
    assertThat(isCached(key(TENANT, "/users", "", "t1"))).isFalse();
  }

  @Test
  void invalidateTenant_loadInFlight_answerDeliveredButNotCached() {
    AuthCacheKey key = key(TENANT, "/users", "", "t1");
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CompletableFuture<AuthDecision> inFlight = cache.get(key, CountingLoader.pending(authCall));

    long removed = cache.invalidateTenant(TENANT);
    authCall.complete(grant(moduleToken));

    assertThat(removed).isZero(); // a load in flight is not a cached decision
    assertThat(inFlight.join().userId()).isEqualTo(USER);
    assertThat(isCached(key)).isFalse();
  }

  @Test
  void invalidateTenant_loadInFlight_laterCallerStartsNewLoad() {
    AuthCacheKey key = key(TENANT, "/users", "", "t1");
    CompletableFuture<AuthDecision> oldCall = new CompletableFuture<>();
    cache.get(key, CountingLoader.pending(oldCall));
    cache.invalidateTenant(TENANT);
    CountingLoader fresh = CountingLoader.pending(new CompletableFuture<>());

    CompletableFuture<AuthDecision> later = cache.get(key, fresh);
    oldCall.complete(grant(moduleToken));

    assertThat(fresh.calls()).isEqualTo(1);
    assertThat(later).isNotDone();
  }

  @Test
  void invalidateUser_loadInFlightTurnsOutToBeTheUsers_notCached() {
    AuthCacheKey key = key(TENANT, "/users", "", "t1"); // no user id header
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CompletableFuture<AuthDecision> inFlight = cache.get(key, CountingLoader.pending(authCall));

    cache.invalidateUser(TENANT, USER);
    authCall.complete(grantFor(USER));

    assertThat(inFlight.join().userId()).isEqualTo(USER);
    assertThat(isCached(key)).isFalse();
  }

  @Test
  void invalidateToken_otherTokenWhileLoading_answerDeliveredButNotCached() {
    AuthCacheKey key = key(TENANT, "/users", "", "t1");
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CompletableFuture<AuthDecision> inFlight = cache.get(key, CountingLoader.pending(authCall));

    cache.invalidateToken("t2"); // cannot tell yet what the load will hand out
    authCall.complete(grant(moduleToken));

    assertThat(inFlight.join().status()).isEqualTo(202);
    assertThat(isCached(key)).isFalse();
  }

  @Test
  void invalidateToken_loadInFlightHandingItOut_notJoinedByALaterLookup() {
    AuthCacheKey key = key(TENANT, "/users", "", "t1");
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CompletableFuture<AuthDecision> inFlight = cache.get(key, CountingLoader.pending(authCall));
    cache.invalidateToken(moduleToken); // the load's key has another token: it stays in flight
    String newModuleToken = Jwt.withoutExp("module-2");
    CountingLoader fresh = CountingLoader.answering(grant(newModuleToken));

    CompletableFuture<AuthDecision> later = cache.get(key, fresh);
    authCall.complete(grant(moduleToken)); // hands out the revoked token

    assertThat(inFlight.join().moduleToken()).isEqualTo(moduleToken); // asked before: its answer
    assertThat(later.join().moduleToken()).isEqualTo(newModuleToken);
    assertThat(fresh.calls()).isEqualTo(1);
  }

  @Test
  void invalidateTenant_otherTenantsEntries_stillHitsAfterManyInvalidations() {
    AuthCacheKey other = key("other", "/users", "", "t1");
    put(other, grant(moduleToken));

    for (int i = 0; i < 5; i++) {
      cache.invalidateTenant(TENANT);
    }

    assertThat(isCached(other)).isTrue();
  }

  @Test
  void invalidateTenant_duringLoaderCall_answerDeliveredButNotCached() {
    AuthCacheKey key = key(TENANT, "/users", "", "t1");

    AuthDecision answer =
        cache
            .get(
                key,
                k -> {
                  cache.invalidateTenant(
                      TENANT); // arrives after the auth call went out, before it is stored
                  return CompletableFuture.completedFuture(grant(moduleToken));
                })
            .join();

    assertThat(answer.status()).isEqualTo(202);
    assertThat(isCached(key)).isFalse();
  }

  @Test
  void invalidateTenant_loadStartedAfterwards_isCached() {
    cache.invalidateTenant(TENANT);
    AuthCacheKey key = key(TENANT, "/users", "", "t1");

    put(key, grant(moduleToken));

    assertThat(isCached(key)).isTrue();
  }

  @Test
  void invalidate_emptyOrNullArguments_rejected() {
    assertThatThrownBy(() -> cache.invalidateUser(TENANT, ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("userId must not be empty");
    assertThatThrownBy(() -> cache.invalidateToken(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("token must not be empty");
    assertThatThrownBy(() -> cache.invalidateTenant(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tenant");
  }

  @Test
  void invalidate_disabledCache_removesNothingButChecksArguments() {
    AuthCache disabled = Fixtures.cache(AuthCacheOptions.defaults().withEnabled(false), time);

    assertThat(disabled.invalidateTenant(TENANT)).isZero();
    assertThat(disabled.invalidateUser(TENANT, USER)).isZero();
    assertThat(disabled.invalidateToken("t1")).isZero();
    assertThatThrownBy(() -> disabled.invalidateToken(""))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
