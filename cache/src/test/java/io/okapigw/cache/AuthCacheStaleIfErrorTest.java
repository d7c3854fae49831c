package io.okapigw.cache;

import static io.okapigw.cache.Fixtures.TENANT;
import static io.okapigw.cache.Fixtures.USER;
import static io.okapigw.cache.Fixtures.grant;
import static io.okapigw.cache.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class AuthCacheStaleIfErrorTest {

  private static final Duration TTL = Duration.ofSeconds(60);
  private static final Duration STALE = Duration.ofSeconds(120);

  private final FakeTime time = new FakeTime();
  private final String moduleToken = Jwt.withoutExp("module");
  private final AuthCacheKey key = key(Jwt.expiringAt(time.now().plus(Duration.ofHours(1)), "u"));
  private final ConnectException down = new ConnectException("connection refused");

  private AuthCache staleCache() {
    return Fixtures.cache(AuthCacheOptions.defaults().withTtl(TTL).withStaleIfError(STALE), time);
  }

  private static CompletableFuture<AuthDecision> getFailing(
      AuthCache cache, AuthCacheKey key, Throwable error) {
    return cache.get(key, CountingLoader.failing(error));
  }

  @Test
  void get_pastTtlAndLoaderFails_servesStaleDecision() {
    AuthCache cache = staleCache();
    AuthDecision cached = cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(TTL);

    AuthDecision served = getFailing(cache, key, down).join();

    assertThat(served.stale()).isTrue();
    assertThat(served.userId()).isEqualTo(USER);
    assertThat(served.permissions()).isEqualTo(cached.permissions());
    assertThat(served.moduleToken()).isEqualTo(moduleToken);
    assertThat(cache.stats().staleServed()).isEqualTo(1);
  }

  @Test
  void get_pastTtlAndLoaderFailsWithStaleOff_fails() {
    AuthCache cache = Fixtures.cache(AuthCacheOptions.defaults().withTtl(TTL), time);
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(TTL);

    CompletableFuture<AuthDecision> result = getFailing(cache, key, down);

    assertThatThrownBy(result::get).isInstanceOf(ExecutionException.class).hasCause(down);
    assertThat(cache.stats().staleServed()).isZero();
  }

  @Test
  void get_pastTtlAndLoaderSucceeds_servesNewAnswerNotStale() {
    AuthCache cache = staleCache();
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(TTL);
    AuthDecision changed = AuthDecision.grant(202, moduleToken, USER, "[\"new.perm\"]", Map.of());
    CountingLoader loader = CountingLoader.answering(changed);

    AuthDecision served = cache.get(key, loader).join();

    assertThat(loader.calls()).isEqualTo(1);
    assertThat(served.stale()).isFalse();
    assertThat(served.permissions()).isEqualTo("[\"new.perm\"]");
    assertThat(cache.get(key, loader).join().permissions()).isEqualTo("[\"new.perm\"]");
    assertThat(loader.calls()).isEqualTo(1);
  }

  @Test
  void get_pastTtlAndLoaderDenies_servesDenialNotStale() {
    AuthCache cache = staleCache();
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(TTL);
    CountingLoader loader = CountingLoader.answering(AuthDecision.refusal(403, "no", ""));

    AuthDecision served = cache.get(key, loader).join();
    AuthDecision again = cache.get(key, loader).join();

    assertThat(served.status()).isEqualTo(403);
    assertThat(again.status()).isEqualTo(403);
    assertThat(loader.calls()).isEqualTo(2); // the denial replaced the grant, and is not cached
  }

  @Test
  void get_withinTtl_loaderNotCalledEvenIfItWouldFail() {
    AuthCache cache = staleCache();
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(TTL.minusNanos(1));
    CountingLoader failing = CountingLoader.failing(down);

    AuthDecision served = cache.get(key, failing).join();

    assertThat(served.stale()).isFalse();
    assertThat(failing.calls()).isZero();
  }

  @Test
  void get_pastTokenExpInsideStaleWindow_failsInsteadOfStale() {
    AuthCache cache = staleCache();
    AuthCacheKey shortKey = key(Jwt.expiringAt(time.now().plusSeconds(90), "u"));
    cache.get(shortKey, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(Duration.ofSeconds(89));
    assertThat(getFailing(cache, shortKey, down).join().stale()).isTrue();
    time.advance(Duration.ofSeconds(1));

    CompletableFuture<AuthDecision> result = getFailing(cache, shortKey, down);

    assertThatThrownBy(result::get).hasCause(down);
  }

  @Test
  void get_tokenExpiresWhileRevalidating_failsInsteadOfStale() {
    AuthCache cache = staleCache();
    AuthCacheKey shortKey = key(Jwt.expiringAt(time.now().plusSeconds(90), "u"));
    cache.get(shortKey, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(Duration.ofSeconds(89));
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CompletableFuture<AuthDecision> result = cache.get(shortKey, CountingLoader.pending(authCall));

    time.advance(Duration.ofSeconds(1)); // auth call timing out past the token's exp
    authCall.completeExceptionally(down);

    assertThatThrownBy(result::get).hasCause(down);
  }

  @Test
  void get_answerCameAfterTtl_keptForStaleIfErrorButNotServedFresh() {
    AuthCache cache = staleCache();
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CompletableFuture<AuthDecision> first = cache.get(key, CountingLoader.pending(authCall));
    time.advance(TTL.plusSeconds(1)); // a busy auth module
    authCall.complete(grant(moduleToken));
    assertThat(first.join().stale()).as("its own caller gets the answer").isFalse();
    CountingLoader failing = CountingLoader.failing(down);

    AuthDecision served = cache.get(key, failing).join();

    assertThat(failing.calls()).as("expired on arrival: the auth module asked again").isEqualTo(1);
    assertThat(served.stale()).isTrue();
    assertThat(served.userId()).isEqualTo(USER);
  }

  @Test
  void get_answerCameAfterTtl_staleWindowCountsFromTheLoadsStart() {
    AuthCache cache = staleCache();
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    cache.get(key, CountingLoader.pending(authCall));
    time.advance(TTL.plusSeconds(1));
    authCall.complete(grant(moduleToken));
    time.advance(STALE.minusSeconds(1).minusNanos(1));
    assertThat(getFailing(cache, key, down).join().stale()).isTrue();
    time.advance(Duration.ofNanos(1));

    CompletableFuture<AuthDecision> result = getFailing(cache, key, down);

    assertThatThrownBy(result::get).hasCause(down);
  }

  @Test
  void get_answerCameAfterTtlWithStaleOff_notCached() {
    AuthCache cache = Fixtures.cache(AuthCacheOptions.defaults().withTtl(TTL), time);
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    cache.get(key, CountingLoader.pending(authCall));
    time.advance(TTL.plusSeconds(1));
    authCall.complete(grant(moduleToken));

    CompletableFuture<AuthDecision> result = getFailing(cache, key, down);

    assertThatThrownBy(result::get).hasCause(down);
    assertThat(cache.stats().size()).isZero();
  }

  @Test
  void get_pastStaleWindow_fails() {
    AuthCache cache = staleCache();
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(TTL.plus(STALE).minusNanos(1));
    assertThat(getFailing(cache, key, down).join().stale()).isTrue();
    time.advance(Duration.ofNanos(1));

    CompletableFuture<AuthDecision> result = getFailing(cache, key, down);

    assertThatThrownBy(result::get).hasCause(down);
  }

  @Test
  void get_staleServedThenAuthBack_servesFreshAnswer() {
    AuthCache cache = staleCache();
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(TTL);
    getFailing(cache, key, down).join();
    CountingLoader recovered = CountingLoader.answering(grant(moduleToken));

    AuthDecision served = cache.get(key, recovered).join();

    assertThat(served.stale()).isFalse();
    assertThat(served.expiresAt()).isEqualTo(time.now().plus(TTL));
    assertThat(recovered.calls()).isEqualTo(1);
  }

  @Test
  void get_eachLookupPastTtl_retriesTheAuthModule() {
    AuthCache cache = staleCache();
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(TTL);
    CountingLoader failing = CountingLoader.failing(down);

    cache.get(key, failing).join();
    cache.get(key, failing).join();

    assertThat(failing.calls()).isEqualTo(2);
    assertThat(cache.stats().staleServed()).isEqualTo(2);
  }

  @Test
  void get_concurrentLookupsPastTtl_shareOneRevalidation() {
    AuthCache cache = staleCache();
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(TTL);
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CountingLoader loader = CountingLoader.pending(authCall);

    CompletableFuture<AuthDecision> first = cache.get(key, loader);
    CompletableFuture<AuthDecision> second = cache.get(key, loader);
    authCall.completeExceptionally(new IOException("timeout"));

    assertThat(loader.calls()).isEqualTo(1);
    assertThat(first.join().stale()).isTrue();
    assertThat(second.join().stale()).isTrue();
  }

  @Test
  void get_userInvalidatedWhileRevalidating_failsInsteadOfStale() {
    AuthCache cache = staleCache();
    cache.get(key, CountingLoader.answering(grant(moduleToken))).join();
    time.advance(TTL);
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CompletableFuture<AuthDecision> result = cache.get(key, CountingLoader.pending(authCall));

    cache.invalidateUser(TENANT, USER);
    authCall.completeExceptionally(down);

    assertThatThrownBy(result::get).hasCause(down);
    assertThat(getFailing(cache, key, down)).isCompletedExceptionally(); // no stale entry left
  }
}
