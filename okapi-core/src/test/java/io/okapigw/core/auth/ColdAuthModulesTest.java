package io.okapigw.core.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When an auth module counts as cold, and what time-out its calls get, on a fake clock. */
class ColdAuthModulesTest {

  private static final String AUTH = "mod-authtoken-2.16.2";
  private static final Duration TIMEOUT = Duration.ofSeconds(3);
  private static final Duration COLD = Duration.ofSeconds(20);
  private static final Duration WARM_UP = Duration.ofMinutes(5);

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final List<Long> given = new ArrayList<>();

  private ColdAuthModules cold(AuthOptions options) {
    return new ColdAuthModules(options, now::get);
  }

  private final ColdAuthModules cold =
      cold(AuthOptions.defaults().withTimeout(TIMEOUT).withColdTimeout(COLD).withWarmUp(WARM_UP));

  /** A call that takes {@code took} on the clock and ends with {@code outcome}. */
  private void call(ColdAuthModules modules, Duration took, Future<String> outcome) {
    modules.call(
        AUTH,
        timeoutMillis -> {
          given.add(timeoutMillis);
          now.addAndGet(took.toNanos());
          return outcome;
        });
  }

  private void call(Duration took, Future<String> outcome) {
    call(cold, took, outcome);
  }

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  private static Future<String> answer() {
    return Future.succeededFuture("granted");
  }

  private static Future<String> timedOut() {
    return Future.failedFuture(HttpError.gatewayTimeout("did not answer within 3000 ms"));
  }

  @Test
  void newModule_coldThroughItsWarmUp_fastAnswersToo_thenTheAuthTimeout() {
    call(Duration.ofMillis(5), answer()); // a login's own decision: no look-up
    call(Duration.ofSeconds(8), answer()); // the first one with look-ups
    advance(WARM_UP.minusSeconds(30));
    assertThat(cold.isWarm(AUTH)).isFalse();
    call(Duration.ofMillis(5), answer());
    advance(Duration.ofSeconds(30));
    assertThat(cold.isWarm(AUTH)).isTrue();
    call(Duration.ofMillis(5), answer());
    assertThat(given).containsExactly(20_000L, 20_000L, 20_000L, 3_000L);
  }

  @Test
  void warmModule_timingOut_staysWarm_soAHungModuleCostsTheAuthTimeout() {
    call(Duration.ofMillis(10), answer());
    advance(WARM_UP);
    call(TIMEOUT, timedOut());
    call(TIMEOUT, timedOut());
    assertThat(cold.isWarm(AUTH)).isTrue();
    assertThat(given).containsExactly(20_000L, 3_000L, 3_000L);
  }

  @Test
  void warmModule_unreachable_coldAgainForAWarmUp_asARestartedModuleIs() {
    call(Duration.ofMillis(10), answer());
    advance(WARM_UP);
    call(Duration.ZERO, Future.failedFuture(HttpError.badGateway("could not be reached: reset")));
    assertThat(cold.isWarm(AUTH)).isFalse();
    call(Duration.ofSeconds(6), answer());
    advance(WARM_UP);
    call(Duration.ofMillis(10), answer());
    assertThat(given).containsExactly(20_000L, 3_000L, 20_000L, 3_000L);
  }

  @Test
  void hungInItsWarmUp_eachCallGetsTheColdTimeout() {
    call(COLD, Future.failedFuture(HttpError.gatewayTimeout("did not answer within 20000 ms")));
    call(COLD, Future.failedFuture(HttpError.gatewayTimeout("did not answer within 20000 ms")));
    assertThat(given).containsExactly(20_000L, 20_000L);
  }

  @Test
  void noWarmUp_theAuthTimeoutFromTheFirstCall() {
    ColdAuthModules none =
        cold(AuthOptions.defaults().withTimeout(TIMEOUT).withWarmUp(Duration.ZERO));
    call(none, Duration.ofMillis(5), answer());
    call(none, Duration.ofMillis(5), answer());
    assertThat(given).containsExactly(3_000L, 3_000L);
  }

  @Test
  void coldTimeoutShorterThanTheAuthTimeout_theAuthTimeoutHolds() {
    ColdAuthModules shorter =
        cold(
            AuthOptions.defaults()
                .withTimeout(Duration.ofSeconds(5))
                .withColdTimeout(Duration.ofSeconds(1)));
    call(shorter, Duration.ZERO, answer());
    assertThat(given).containsExactly(5_000L);
  }

  @Test
  void handlerCalls_shareTheWarmUp_coldBudgetThenTheirOwn_longerOfTheTwoWhileCold() {
    long handler = Duration.ofSeconds(10).toMillis();
    call(Duration.ofMillis(5), answer()); // a filter call starts the warm-up
    cold.call(AUTH, handler, t -> record(t, answer()));
    cold.call(AUTH, Duration.ofSeconds(30).toMillis(), t -> record(t, answer()));
    advance(WARM_UP);
    cold.call(AUTH, handler, t -> record(t, answer()));
    call(Duration.ofMillis(5), answer());
    assertThat(given).containsExactly(20_000L, 20_000L, 30_000L, 10_000L, 3_000L);
  }

  private Future<String> record(long timeoutMillis, Future<String> outcome) {
    given.add(timeoutMillis);
    return outcome;
  }
}
