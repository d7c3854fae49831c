package io.okapigw.cache;

import static io.okapigw.cache.Fixtures.PERMISSIONS;
import static io.okapigw.cache.Fixtures.TENANT;
import static io.okapigw.cache.Fixtures.USER;
import static io.okapigw.cache.Fixtures.grant;
import static io.okapigw.cache.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AuthCacheLookupTest {

  private final FakeTime time = new FakeTime();
  private final String token = Jwt.withoutExp("user-token");
  private final String moduleToken = Jwt.withoutExp("module-token");
  private final AuthCacheKey key = key(token);

  private AuthCache cache(AuthCacheOptions options) {
    return Fixtures.cache(options, time);
  }

  @Test
  void get_miss_callsLoaderAndReturnsDecision() {
    AuthCache cache = cache(AuthCacheOptions.defaults());
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));

    AuthDecision decision = cache.get(key, loader).join();

    assertThat(loader.calls()).isEqualTo(1);
    assertThat(decision.status()).isEqualTo(202);
    assertThat(decision.moduleToken()).isEqualTo(moduleToken);
    assertThat(decision.userId()).isEqualTo(USER);
    assertThat(decision.permissions()).isEqualTo(PERMISSIONS);
    assertThat(decision.stale()).isFalse();
    assertThat(decision.expiresAt()).isEqualTo(time.now().plus(Duration.ofSeconds(180)));
  }

  @Test
  void get_secondCallOnEqualKey_isHitWithoutLoad() {
    AuthCache cache = cache(AuthCacheOptions.defaults());
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));
    AuthDecision first = cache.get(key, loader).join();

    AuthDecision second = cache.get(key(new String(token)), loader).join();

    assertThat(loader.calls()).isEqualTo(1);
    assertThat(second).isEqualTo(first);
    assertThat(cache.stats().hits()).isEqualTo(1);
    assertThat(cache.stats().misses()).isEqualTo(1);
  }

  @Test
  void get_keysDifferingInOneComponent_eachLoads() {
    AuthCache cache = cache(AuthCacheOptions.defaults());
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));
    List<AuthCacheKey> keys =
        List.of(
            key,
            new AuthCacheKey("other", key.method(), key.pathPattern(), "", token),
            new AuthCacheKey(TENANT, "GET", key.pathPattern(), "", token),
            new AuthCacheKey(TENANT, key.method(), "/users/{id}", "", token),
            new AuthCacheKey(TENANT, key.method(), key.pathPattern(), USER, token),
            new AuthCacheKey(TENANT, key.method(), key.pathPattern(), "", "other-token"));

    keys.forEach(k -> cache.get(k, loader).join());
    keys.forEach(k -> cache.get(k, loader).join());

    assertThat(loader.calls()).isEqualTo(keys.size());
  }

  @Test
  void get_hundredConcurrentMisses_shareOneLoad() throws Exception {
    AuthCache cache = cache(AuthCacheOptions.defaults());
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CountingLoader loader = CountingLoader.pending(authCall);
    CountDownLatch start = new CountDownLatch(1);
    List<Callable<CompletableFuture<AuthDecision>>> callers = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      callers.add(
          () -> {
            start.await();
            return cache.get(key(new String(token)), loader);
          });
    }
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<CompletableFuture<AuthDecision>>> submitted = new ArrayList<>();
      callers.forEach(c -> submitted.add(pool.submit(c)));
      start.countDown();
      List<CompletableFuture<AuthDecision>> results = new ArrayList<>();
      for (Future<CompletableFuture<AuthDecision>> f : submitted) {
        results.add(f.get(1, TimeUnit.MINUTES));
      }
      assertThat(loader.calls()).isEqualTo(1);
      assertThat(results).noneMatch(CompletableFuture::isDone);

      authCall.complete(grant(moduleToken));

      assertThat(results).allSatisfy(r -> assertThat(r.join().userId()).isEqualTo(USER));
      assertThat(cache.stats().loads()).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void get_loaderFails_failureReturnedAndNotCached() {
    AuthCache cache = cache(AuthCacheOptions.defaults());
    IOException down = new IOException("auth module unreachable");

    CompletableFuture<AuthDecision> failed = cache.get(key, CountingLoader.failing(down));

    assertThatThrownBy(failed::get).isInstanceOf(ExecutionException.class).hasCause(down);
    CountingLoader next = CountingLoader.answering(grant(moduleToken));
    assertThat(cache.get(key, next).join().status()).isEqualTo(202);
    assertThat(next.calls()).isEqualTo(1);
    assertThat(cache.stats().loadFailures()).isEqualTo(1);
  }

  @Test
  void get_loaderThrows_failedFutureAndNextCallLoads() {
    AuthCache cache = cache(AuthCacheOptions.defaults());
    IllegalStateException bug = new IllegalStateException("bug in loader");

    CompletableFuture<AuthDecision> failed =
        cache.get(
            key,
            k -> {
              throw bug;
            });

    assertThatThrownBy(failed::get).hasCause(bug);
    CountingLoader next = CountingLoader.answering(grant(moduleToken));
    cache.get(key, next).join();
    assertThat(next.calls()).isEqualTo(1);
  }

  @Test
  void get_loaderReturnsNullOrNullDecision_failedFuture() {
    AuthCache cache = cache(AuthCacheOptions.defaults());

    CompletableFuture<AuthDecision> nullFuture = cache.get(key, k -> null);
    CompletableFuture<AuthDecision> nullDecision =
        cache.get(key, k -> CompletableFuture.completedFuture(null));

    assertThatThrownBy(nullFuture::get).hasCauseInstanceOf(NullPointerException.class);
    assertThatThrownBy(nullDecision::get).hasCauseInstanceOf(NullPointerException.class);
  }

  @Test
  void get_status500_returnedButNotCached() {
    AuthCache cache = cache(AuthCacheOptions.defaults().withNegativeTtl(Duration.ofSeconds(30)));
    CountingLoader loader =
        CountingLoader.answering(AuthDecision.refusal(500, "boom", "text/plain"));

    AuthDecision first = cache.get(key, loader).join();
    AuthDecision second = cache.get(key, loader).join();

    assertThat(first.status()).isEqualTo(500);
    assertThat(first.body()).isEqualTo("boom");
    assertThat(first.expiresAt()).isNull();
    assertThat(second.status()).isEqualTo(500);
    assertThat(loader.calls()).isEqualTo(2);
    assertThat(cache.stats().size()).isZero();
  }

  @Test
  void get_uncacheableAnswerWithWaiters_everyWaiterGetsItAndNextCallLoads() {
    AuthCache cache = cache(AuthCacheOptions.defaults());
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CountingLoader loader = CountingLoader.pending(authCall);
    CompletableFuture<AuthDecision> first = cache.get(key, loader);
    CompletableFuture<AuthDecision> second = cache.get(key, loader);

    authCall.complete(AuthDecision.refusal(503, "", ""));

    assertThat(first.join().status()).isEqualTo(503);
    assertThat(second.join().status()).isEqualTo(503);
    CountingLoader next = CountingLoader.answering(grant(moduleToken));
    assertThat(cache.get(key, next).join().status()).isEqualTo(202);
    assertThat(loader.calls()).isEqualTo(1);
    assertThat(next.calls()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(ints = {401, 403})
  void get_denialWithoutNegativeTtl_notCached(int status) {
    AuthCache cache = cache(AuthCacheOptions.defaults());
    CountingLoader loader =
        CountingLoader.answering(AuthDecision.refusal(status, "no", "text/plain"));

    cache.get(key, loader).join();
    AuthDecision second = cache.get(key, loader).join();

    assertThat(second.status()).isEqualTo(status);
    assertThat(loader.calls()).isEqualTo(2);
  }

  @ParameterizedTest
  @ValueSource(ints = {401, 403})
  void get_denialWithNegativeTtl_cachedUntilNegativeTtl(int status) {
    AuthCache cache = cache(AuthCacheOptions.defaults().withNegativeTtl(Duration.ofSeconds(10)));
    CountingLoader loader =
        CountingLoader.answering(AuthDecision.refusal(status, "{\"e\":1}", "application/json"));

    cache.get(key, loader).join();
    time.advance(Duration.ofSeconds(10).minusNanos(1));
    AuthDecision hit = cache.get(key, loader).join();
    assertThat(loader.calls()).isEqualTo(1);
    time.advance(Duration.ofNanos(1));
    cache.get(key, loader).join();

    assertThat(loader.calls()).isEqualTo(2);
    assertThat(hit.body()).isEqualTo("{\"e\":1}");
    assertThat(hit.contentType()).isEqualTo("application/json");
  }

  @Test
  void get_status400WithNegativeTtl_notCached() {
    AuthCache cache = cache(AuthCacheOptions.defaults().withNegativeTtl(Duration.ofSeconds(10)));
    CountingLoader loader = CountingLoader.answering(AuthDecision.refusal(400, "bad", ""));

    cache.get(key, loader).join();
    cache.get(key, loader).join();

    assertThat(loader.calls()).isEqualTo(2);
  }

  @Test
  void get_disabled_callsLoaderEveryTimeAndCountsLoads() {
    AuthCache cache = cache(AuthCacheOptions.defaults().withEnabled(false));
    CompletableFuture<AuthDecision> authCall = new CompletableFuture<>();
    CountingLoader loader = CountingLoader.pending(authCall);

    CompletableFuture<AuthDecision> first = cache.get(key, loader);
    CompletableFuture<AuthDecision> second = cache.get(key, loader);
    authCall.complete(grant(moduleToken));

    assertThat(loader.calls()).isEqualTo(2);
    assertThat(first.join().expiresAt()).isNull();
    assertThat(second.join().status()).isEqualTo(202);
    AuthCacheStats stats = cache.stats();
    assertThat(stats.loads()).isEqualTo(2);
    assertThat(stats.misses()).isEqualTo(2);
    assertThat(stats.hits()).isZero();
    assertThat(stats.size()).isZero();
    assertThat(cache.invalidateAll()).isZero();
  }

  @Test
  void get_disabledLoaderFails_countsLoadFailure() {
    AuthCache cache = cache(AuthCacheOptions.defaults().withEnabled(false));

    CompletableFuture<AuthDecision> failed =
        cache.get(key, CountingLoader.failing(new IOException("down")));

    assertThat(failed).isCompletedExceptionally();
    assertThat(cache.stats().loadFailures()).isEqualTo(1);
  }

  @Test
  void get_nullArguments_throwNullPointerException() {
    AuthCache cache = cache(AuthCacheOptions.defaults());

    assertThatThrownBy(() -> cache.get(null, CountingLoader.answering(grant(moduleToken))))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("key");
    assertThatThrownBy(() -> cache.get(key, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("loader");
  }

  @Test
  void stats_afterOneMissAndThreeHits_reportsRatio() {
    AuthCache cache = cache(AuthCacheOptions.defaults());
    CountingLoader loader = CountingLoader.answering(grant(moduleToken));
    for (int i = 0; i < 4; i++) {
      cache.get(key, loader).join();
    }

    AuthCacheStats stats = cache.stats();

    assertThat(stats.size()).isEqualTo(1);
    assertThat(stats.hits()).isEqualTo(3);
    assertThat(stats.misses()).isEqualTo(1);
    assertThat(stats.hitRatio()).isEqualTo(0.75);
    assertThat(stats.loads()).isEqualTo(1);
    assertThat(stats.loadFailures()).isZero();
  }

  @Test
  void options_afterCreate_theGivenOnes() {
    AuthCacheOptions options = AuthCacheOptions.defaults().withTtl(Duration.ofSeconds(5));

    assertThat(cache(options).options()).isEqualTo(options);
  }
}
