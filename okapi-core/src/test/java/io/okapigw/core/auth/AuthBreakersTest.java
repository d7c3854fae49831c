package io.okapigw.core.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The auth modules' breakers on a fake clock. */
class AuthBreakersTest {

  private static final String AUTH = "mod-authtoken-1.0.0";
  private static final Duration INTERVAL = Duration.ofSeconds(1);

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicInteger made = new AtomicInteger();

  private AuthBreakers breakers(int failures) {
    return new AuthBreakers(
        AuthOptions.defaults().withBreaker(failures, INTERVAL), now::get, registry);
  }

  private Supplier<Future<String>> failing() {
    return () -> {
      made.incrementAndGet();
      return Future.failedFuture(HttpError.unavailable("no connection"));
    };
  }

  private Supplier<Future<String>> answering() {
    return () -> {
      made.incrementAndGet();
      return Future.succeededFuture("answer");
    };
  }

  private Future<String> call(AuthBreakers breakers, Supplier<Future<String>> call) {
    return breakers.call("diku", AUTH, call);
  }

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  private double openGauge() {
    return registry.get("okapi.auth.breakers.open").gauge().value();
  }

  @Test
  void failuresInARow_openTheBreaker_thenCallsFailAtOnceWithoutAskingTheModule() {
    AuthBreakers breakers = breakers(3);
    for (int i = 0; i < 3; i++) {
      assertThat(call(breakers, failing()).failed()).isTrue();
    }
    assertThat(made).hasValue(3);
    assertThat(breakers.isOpen(AUTH)).isTrue();
    assertThat(openGauge()).isEqualTo(1.0);

    Future<String> refused = call(breakers, answering());

    assertThat(made).as("the module was not asked").hasValue(3);
    assertThat(refused.failed()).isTrue();
    assertThat(refused.cause())
        .isInstanceOfSatisfying(HttpError.class, e -> assertThat(e.status()).isEqualTo(503))
        .hasMessageContaining(AUTH)
        .hasMessageContaining("did not answer 3 auth calls in a row");
    assertThat(registry.get("okapi.auth.calls.skipped").tag("tenant", "diku").counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void anAnswerInBetween_startsTheCountAgain() {
    AuthBreakers breakers = breakers(3);
    call(breakers, failing());
    call(breakers, failing());
    call(breakers, answering());
    call(breakers, failing());
    call(breakers, failing());
    assertThat(breakers.isOpen(AUTH)).isFalse();
    assertThat(call(breakers, answering()).succeeded()).isTrue();
  }

  @Test
  void open_oneProbePerInterval_othersRefusedWhileItRuns_itsAnswerCloses() {
    AuthBreakers breakers = breakers(2);
    call(breakers, failing());
    call(breakers, failing());
    advance(INTERVAL.minusMillis(1));
    call(breakers, answering());
    assertThat(made).as("before the interval: no probe").hasValue(2);

    advance(Duration.ofMillis(1));
    Promise<String> probe = Promise.promise();
    Future<String> probing =
        call(
            breakers,
            () -> {
              made.incrementAndGet();
              return probe.future();
            });
    assertThat(made).as("the probe").hasValue(3);
    assertThat(call(breakers, answering()).failed()).as("refused while the probe runs").isTrue();
    assertThat(made).hasValue(3);

    probe.complete("answer");

    assertThat(probing.result()).isEqualTo("answer");
    assertThat(breakers.isOpen(AUTH)).isFalse();
    assertThat(openGauge()).isZero();
    assertThat(call(breakers, answering()).succeeded()).isTrue();
    assertThat(made).hasValue(4);
  }

  @Test
  void probeFails_openForAnotherInterval() {
    AuthBreakers breakers = breakers(1);
    call(breakers, failing());
    advance(INTERVAL);
    call(breakers, failing());
    assertThat(made).as("the failed probe").hasValue(2);
    assertThat(breakers.isOpen(AUTH)).isTrue();

    advance(INTERVAL.minusMillis(1));
    call(breakers, answering());
    assertThat(made).as("no probe before another interval").hasValue(2);
    advance(Duration.ofMillis(1));
    assertThat(call(breakers, answering()).succeeded()).isTrue();
    assertThat(made).hasValue(3);
    assertThat(breakers.isOpen(AUTH)).isFalse();
  }

  @Test
  void aCallInFlightWhenItOpened_answering_closesIt() {
    AuthBreakers breakers = breakers(2);
    Promise<String> slow = Promise.promise();
    call(
        breakers,
        () -> {
          made.incrementAndGet();
          return slow.future();
        });
    call(breakers, failing());
    call(breakers, failing());
    assertThat(breakers.isOpen(AUTH)).isTrue();

    slow.complete("late answer");

    assertThat(breakers.isOpen(AUTH)).as("the module answered").isFalse();
  }

  @Test
  void eachAuthModuleHasItsOwn() {
    AuthBreakers breakers = breakers(1);
    call(breakers, failing());
    assertThat(breakers.isOpen(AUTH)).isTrue();
    assertThat(breakers.call("diku", "mod-other-auth-1.0.0", answering()).succeeded()).isTrue();
    assertThat(breakers.isOpen("mod-other-auth-1.0.0")).isFalse();
  }

  @Test
  void refusal_retryAfterIsTheTimeToTheNextProbe_atLeastASecond() {
    AuthBreakers breakers =
        new AuthBreakers(
            AuthOptions.defaults().withBreaker(1, Duration.ofSeconds(10)), now::get, registry);
    call(breakers, failing());
    advance(Duration.ofMillis(2_500));

    assertThat(call(breakers, answering()).cause())
        .isInstanceOfSatisfying(
            HttpError.class, e -> assertThat(e.retryAfterSeconds()).isEqualTo(8));
    advance(Duration.ofMillis(7_499));
    assertThat(call(breakers, answering()).cause())
        .isInstanceOfSatisfying(
            HttpError.class, e -> assertThat(e.retryAfterSeconds()).isEqualTo(1));
  }

  @Test
  void failureNotTheModules_countsForNothing_aProbeLetsTheNextTry() {
    AuthBreakers breakers = breakers(2);
    breakers.call("diku", AUTH, failing(), e -> false);
    breakers.call("diku", AUTH, failing(), e -> false);
    assertThat(breakers.isOpen(AUTH)).as("the client left: not counted").isFalse();

    call(breakers, failing());
    call(breakers, failing());
    advance(INTERVAL);
    breakers.call("diku", AUTH, failing(), e -> false);
    assertThat(made).as("the probe").hasValue(5);
    assertThat(call(breakers, answering()).succeeded())
        .as("a probe whose client left is no probe: the next call tries")
        .isTrue();
    assertThat(breakers.isOpen(AUTH)).isFalse();
  }

  @Test
  void zeroFailures_noBreaker() {
    AuthBreakers breakers = breakers(0);
    for (int i = 0; i < 100; i++) {
      call(breakers, failing());
    }
    assertThat(made).hasValue(100);
    assertThat(breakers.isOpen(AUTH)).isFalse();
  }
}
