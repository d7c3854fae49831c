package io.okapigw.cache;

import static io.okapigw.cache.Fixtures.TENANT;
import static io.okapigw.cache.Fixtures.grant;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@link AuthCache#peek}: a fresh decision as a lookup would serve it, or nothing; it never loads,
 * is never counted, and never shows what an invalidation dropped or a load in flight during one.
 */
class AuthCachePeekTest {

  private final FakeTime time = new FakeTime();
  private final AuthCacheOptions options =
      AuthCacheOptions.defaults().withTtl(Duration.ofSeconds(60));
  private final AuthCache cache = Fixtures.cache(options, time);
  private final String token = Jwt.expiringAt(FakeTime.START.plusSeconds(600), "u");
  private final AuthCacheKey key = Fixtures.key(token);

  /**
   * @return the decision as the cache serves it (with its expiry)
   */
  private AuthDecision put(AuthDecision decision) {
    return cache.get(key, CountingLoader.answering(decision)).join();
  }

  @Test
  void freshDecision_peeked_withoutCountingALookup() {
    AuthDecision served = put(grant(token));
    AuthCacheStats before = cache.stats();

    assertThat(cache.peek(key)).contains(served);
    assertThat(cache.peek(Fixtures.key("another"))).isEmpty();
    assertThat(cache.stats().hits()).isEqualTo(before.hits());
    assertThat(cache.stats().misses()).isEqualTo(before.misses());
  }

  @Test
  void pastItsTtl_orItsTokensExp_notPeeked() {
    put(grant(token));
    time.advance(Duration.ofSeconds(61));
    assertThat(cache.peek(key)).isEmpty();

    String shortLived = Jwt.expiringAt(FakeTime.START.plusSeconds(90), "u");
    AuthCacheKey shortKey = Fixtures.key(shortLived);
    cache.get(shortKey, CountingLoader.answering(grant(shortLived))).join();
    time.advance(Duration.ofSeconds(30));
    assertThat(cache.peek(shortKey)).isEmpty();
  }

  @Test
  void invalidated_notPeeked() {
    put(grant(token));

    cache.invalidateToken(token);

    assertThat(cache.peek(key)).isEmpty();
  }

  @Test
  void loadInFlight_orStartedBeforeAnInvalidation_neverPeeked() {
    CompletableFuture<AuthDecision> answer = new CompletableFuture<>();
    CompletableFuture<AuthDecision> looked = cache.get(key, CountingLoader.pending(answer));
    assertThat(cache.peek(key)).isEmpty();

    cache.invalidateTenant(TENANT);
    answer.complete(grant(token));

    assertThat(looked.join().userId()).isEqualTo(Fixtures.USER);
    assertThat(cache.peek(key)).isEmpty();
  }

  @Test
  void refusal_peekedAsIs() {
    AuthCache negative = Fixtures.cache(options.withNegativeTtl(Duration.ofSeconds(30)), time);
    AuthDecision refusal = AuthDecision.refusal(403, "no", "text/plain");
    AuthDecision served = negative.get(key, CountingLoader.answering(refusal)).join();

    assertThat(negative.peek(key)).contains(served);
    assertThat(served.status()).isEqualTo(403);
  }

  @Test
  void disabledCache_peeksNothing() {
    AuthCache off = Fixtures.cache(options.withEnabled(false), time);
    off.get(key, CountingLoader.answering(grant(token))).join();

    assertThat(off.peek(key)).isEmpty();
  }
}
