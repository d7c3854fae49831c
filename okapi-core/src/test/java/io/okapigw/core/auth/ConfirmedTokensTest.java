package io.okapigw.core.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheKey;
import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.cache.AuthDecision;
import io.okapigw.core.auth.ConfirmedTokens.Identity;
import io.vertx.core.http.HttpMethod;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A token is confirmed for a tenant and the user id sent with it while the auth module's grant of
 * it is in the auth cache, fresh; never by a refusal, never without a token, never past the grant's
 * TTL or an invalidation.
 */
class ConfirmedTokensTest {

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final AuthCache cache =
      AuthCache.create(
          AuthCacheOptions.defaults().withTtl(Duration.ofSeconds(60)),
          nanos::get,
          new SimpleMeterRegistry());
  private final ConfirmedTokens confirmed = new ConfirmedTokens(cache, nanos::get);

  private static AuthRequest request(String tenant, String token, String userId) {
    return new AuthRequest(tenant, HttpMethod.GET, "/a", token, userId, null, null);
  }

  /** The auth module answers {@code decision} for a request on route {@code /a}. */
  private void decided(AuthRequest request, AuthDecision decision) {
    AuthCacheKey key =
        new AuthCacheKey(request.tenant(), "GET", "/a", request.userId(), request.token());
    cache.get(key, k -> CompletableFuture.completedFuture(decision)).join();
    confirmed.granted(request, key, decision);
  }

  private static AuthDecision grant(String userId, Map<String, String> moduleTokens) {
    return AuthDecision.grant(202, "t", userId, "[]", moduleTokens);
  }

  @Test
  void grant_confirmsTheTokenForItsTenantAndTheUserIdSentOnly() {
    decided(request("diku", "t", null), grant("u1", Map.of()));

    assertThat(confirmed.of("diku", "t", null)).contains(new Identity("u1", "t"));
    assertThat(confirmed.of("other", "t", null)).isEmpty();
    assertThat(confirmed.of("diku", "t", "u2")).isEmpty();
    assertThat(confirmed.of("diku", "t2", null)).isEmpty();
  }

  @Test
  void grant_handsTheTokenTheAuthModuleGivesModules() {
    decided(request("diku", "t", null), grant("u1", Map.of("_", "t-for-modules", "m", "x")));

    assertThat(confirmed.of("diku", "t", null)).contains(new Identity("u1", "t-for-modules"));
  }

  @Test
  void refusal_orNoToken_confirmsNothing() {
    decided(request("diku", "t", null), AuthDecision.refusal(401, "no", "text/plain"));
    decided(request("diku", null, null), grant("", Map.of()));

    assertThat(confirmed.of("diku", "t", null)).isEmpty();
    assertThat(confirmed.of("diku", null, null)).isEmpty();
  }

  @Test
  void pastTheGrantsTtl_orAfterAnInvalidation_notConfirmed() {
    decided(request("diku", "t", null), grant("u1", Map.of()));
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(confirmed.of("diku", "t", null)).isEmpty();

    decided(request("diku", "t", null), grant("u1", Map.of()));
    cache.invalidateUser("diku", "u1");
    assertThat(confirmed.of("diku", "t", null)).isEmpty();
  }

  @Test
  void cacheOff_confirmsNothing() {
    AuthCache off =
        AuthCache.create(
            AuthCacheOptions.defaults().withEnabled(false), nanos::get, new SimpleMeterRegistry());
    ConfirmedTokens none = new ConfirmedTokens(off, nanos::get);
    AuthCacheKey key = new AuthCacheKey("diku", "GET", "/a", null, "t");
    AuthDecision grant = grant("u1", Map.of());
    off.get(key, k -> CompletableFuture.completedFuture(grant)).join();
    none.granted(request("diku", "t", null), key, grant);

    assertThat(none.of("diku", "t", null)).isEmpty();
  }
}
