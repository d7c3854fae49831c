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

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final List<Long> given = new ArrayList<>();
  private final ColdAuthModules cold =
      new ColdAuthModules(
          AuthOptions.defaults().withTimeout(TIMEOUT).withColdTimeout(COLD), now::get);

  /** A call that takes {@code took} on the clock and ends with {@code outcome}. */
  private void call(Duration took, Future<String> outcome) {
    cold.call(
        AUTH,
        timeoutMillis -> {
          given.add(timeoutMillis);
          now.addAndGet(took.toNanos());
          return outcome;
        });
  }

  private static Future<String> answer() {
    return Future.succeededFuture("granted");
  }

  @Test
  void newModule_cold_slowAnswersKeepItCold_anAnswerInTimeWarmsIt() {
    call(Duration.ofSeconds(8), answer());
    call(Duration.ofSeconds(4), answer());
    assertThat(cold.isWarm(AUTH)).as("answered, but slower than auth.timeout").isFalse();
    call(Duration.ofMillis(40), answer());
    assertThat(cold.isWarm(AUTH)).isTrue();
    call(Duration.ofMillis(5), answer());
    assertThat(given).containsExactly(20_000L, 20_000L, 20_000L, 3_000L);
  }

  @Test
  void warmModule_timingOut_staysWarm_soAHungModuleCostsTheAuthTimeout() {
    call(Duration.ofMillis(10), answer());
    call(TIMEOUT, Future.failedFuture(HttpError.gatewayTimeout("did not answer within 3000 ms")));
    call(TIMEOUT, Future.failedFuture(HttpError.gatewayTimeout("did not answer within 3000 ms")));
    assertThat(cold.isWarm(AUTH)).isTrue();
    assertThat(given).containsExactly(20_000L, 3_000L, 3_000L);
  }

  @Test
  void warmModule_unreachable_coldAgain_asARestartedModuleIs() {
    call(Duration.ofMillis(10), answer());
    call(Duration.ZERO, Future.failedFuture(HttpError.badGateway("could not be reached: reset")));
    assertThat(cold.isWarm(AUTH)).isFalse();
    call(Duration.ofSeconds(6), answer());
    assertThat(given).containsExactly(20_000L, 3_000L, 20_000L);
  }

  @Test
  void hungFromItsStart_eachCallGetsTheColdTimeout_andStaysCold() {
    call(COLD, Future.failedFuture(HttpError.gatewayTimeout("did not answer within 20000 ms")));
    call(COLD, Future.failedFuture(HttpError.gatewayTimeout("did not answer within 20000 ms")));
    assertThat(cold.isWarm(AUTH)).isFalse();
    assertThat(given).containsExactly(20_000L, 20_000L);
  }

  @Test
  void coldTimeoutShorterThanTheAuthTimeout_theAuthTimeoutHolds() {
    ColdAuthModules shorter =
        new ColdAuthModules(
            AuthOptions.defaults()
                .withTimeout(Duration.ofSeconds(5))
                .withColdTimeout(Duration.ofSeconds(1)),
            now::get);
    shorter.call(
        AUTH,
        timeoutMillis -> {
          given.add(timeoutMillis);
          return answer();
        });
    assertThat(given).containsExactly(5_000L);
  }
}
