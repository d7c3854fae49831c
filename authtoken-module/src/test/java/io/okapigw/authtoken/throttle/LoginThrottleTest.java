package io.okapigw.authtoken.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.http.ApiException;
import io.okapigw.config.Settings;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The throttle's rules on an injected clock, with logins whose outcome the test decides: locks per
 * user and per client as mod-login's, one check per user at a time, a bounded queue of checks.
 */
class LoginThrottleTest {

  private static final ApiException WRONG = ApiException.unprocessable("wrong");
  private static final ApiException NO_SUCH_USER = ApiException.unprocessable("no such user");

  private static LoginThrottle.Failure failureOf(Throwable e) {
    if (e == WRONG) {
      return LoginThrottle.Failure.WRONG_PASSWORD;
    }
    return e == NO_SUCH_USER ? LoginThrottle.Failure.UNKNOWN_USER : LoginThrottle.Failure.NONE;
  }

  private final MutableClock clock = MutableClock.ofNow();

  private LoginThrottle throttle(int attempts, int clientAttempts, int queue) {
    return new LoginThrottle(
        new LoginThrottleOptions(attempts, Duration.ofMinutes(10), clientAttempts, queue), clock);
  }

  private LoginThrottle throttle(Map<String, String> settings) {
    return new LoginThrottle(LoginThrottleOptions.from(Settings.of(settings)), clock);
  }

  private static Future<String> attempt(
      LoginThrottle throttle, String user, String client, Future<String> outcome) {
    return throttle.attempt("diku", user, client, () -> outcome, LoginThrottleTest::failureOf);
  }

  private static Future<String> fail(LoginThrottle throttle, String user, String client) {
    return attempt(throttle, user, client, Future.failedFuture(WRONG));
  }

  private static Future<String> unknown(LoginThrottle throttle, String user, String client) {
    return attempt(throttle, user, client, Future.failedFuture(NO_SUCH_USER));
  }

  private static ApiException refusal(Future<String> attempt) {
    assertThat(attempt.failed()).as("refused").isTrue();
    assertThat(attempt.cause()).isInstanceOf(ApiException.class);
    ApiException e = (ApiException) attempt.cause();
    assertThat(e.status()).as(e.getMessage()).isEqualTo(429);
    return e;
  }

  @Test
  void failures_lockTheUserNameFromThatClientForTheTimeout_thenUnlock() {
    LoginThrottle throttle = throttle(5, 0, 100);
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofSeconds(30));
      assertThat(fail(throttle, "alice", "c1").cause()).isSameAs(WRONG);
    }
    ApiException locked = refusal(attempt(throttle, "Alice", "c1", Future.succeededFuture("ok")));
    assertThat(locked.retryAfterSeconds()).isEqualTo(Duration.ofMinutes(10).toSeconds());
    assertThat(locked.getMessage()).contains("Alice", "600 s");
    assertThat(attempt(throttle, "bob", "c1", Future.succeededFuture("ok")).result())
        .isEqualTo("ok");
    assertThat(attempt(throttle, "alice", "c2", Future.succeededFuture("ok")).result())
        .as("another client")
        .isEqualTo("ok");
    clock.advance(Duration.ofMinutes(10).minusSeconds(1));
    assertThat(
            refusal(attempt(throttle, "alice", "c1", Future.succeededFuture("ok")))
                .retryAfterSeconds())
        .isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    assertThat(attempt(throttle, "alice", "c1", Future.succeededFuture("ok")).result())
        .isEqualTo("ok");
  }

  @Test
  void failuresFromManyClients_lockTheUserNameForAllButClientsItLoggedInFrom() {
    LoginThrottle throttle =
        throttle(Map.of("login.fail.client-attempts", "0", "login.fail.user-attempts", "3"));
    assertThat(attempt(throttle, "alice", "home", Future.succeededFuture("ok")).succeeded())
        .isTrue();
    fail(throttle, "alice", "c1");
    fail(throttle, "alice", "c2");
    fail(throttle, "alice", "c3");
    assertThat(refusal(attempt(throttle, "alice", "c4", Future.succeededFuture("ok"))).getMessage())
        .contains("too many failed logins of alice");
    assertThat(attempt(throttle, "alice", "home", Future.succeededFuture("ok")).succeeded())
        .isTrue();
    clock.advance(Duration.ofMinutes(10));
    assertThat(attempt(throttle, "alice", "c4", Future.succeededFuture("ok")).succeeded()).isTrue();
  }

  @Test
  void failuresOlderThanTheTimeout_forgotten_aSuccessResets() {
    LoginThrottle throttle = throttle(3, 0, 100);
    fail(throttle, "alice", null);
    fail(throttle, "alice", null);
    clock.advance(Duration.ofMinutes(10));
    fail(throttle, "alice", null);
    fail(throttle, "alice", null);
    assertThat(attempt(throttle, "alice", null, Future.succeededFuture("ok")).succeeded()).isTrue();
    fail(throttle, "alice", null);
    fail(throttle, "alice", null);
    assertThat(attempt(throttle, "alice", null, Future.succeededFuture("ok")).succeeded()).isTrue();
  }

  @Test
  void otherFailures_notCounted() {
    LoginThrottle throttle = throttle(1, 1, 100);
    attempt(throttle, "alice", "c1", Future.failedFuture(new ApiException(422, "not active")));
    attempt(throttle, "alice", "c1", Future.failedFuture(new IllegalStateException("store down")));
    assertThat(attempt(throttle, "alice", "c1", Future.succeededFuture("ok")).succeeded()).isTrue();
  }

  @Test
  void noLimit_neverLocked() {
    LoginThrottle throttle =
        throttle(
            Map.of(
                "login.fail.attempts", "0",
                "login.fail.client-attempts", "0",
                "login.fail.user-attempts", "0"));
    for (int i = 0; i < 50; i++) {
      fail(throttle, "alice", "c1");
    }
    assertThat(attempt(throttle, "alice", "c1", Future.succeededFuture("ok")).succeeded()).isTrue();
  }

  @Test
  void oneClientsFailuresForUnknownNames_lockItForNamesNotKnownThere_otherClientsUnaffected() {
    LoginThrottle throttle = throttle(5, 3, 100);
    assertThat(attempt(throttle, "alice", "6.6.6.6", Future.succeededFuture("ok")).succeeded())
        .isTrue();
    fail(throttle, "bob", "6.6.6.6");
    fail(throttle, "bob", "6.6.6.6");
    fail(throttle, "bob", "6.6.6.6");
    assertThat(attempt(throttle, "d", "6.6.6.6", Future.succeededFuture("ok")).succeeded())
        .as("wrong passwords of a user that exists do not count for the client")
        .isTrue();
    unknown(throttle, "x", "6.6.6.6");
    unknown(throttle, "y", "6.6.6.6");
    unknown(throttle, "z", "6.6.6.6");
    ApiException locked = refusal(attempt(throttle, "e", "6.6.6.6", Future.succeededFuture("ok")));
    assertThat(locked.getMessage()).contains("client");
    assertThat(attempt(throttle, "alice", "6.6.6.6", Future.succeededFuture("ok")).succeeded())
        .as("logged in from there before")
        .isTrue();
    assertThat(attempt(throttle, "e", "7.7.7.7", Future.succeededFuture("ok")).succeeded())
        .isTrue();
  }

  @Test
  void knownClients_forgottenAfterTheirTtl() {
    LoginThrottle throttle =
        throttle(Map.of("login.fail.client-attempts", "1", "login.known-client-ttl", "1d"));
    attempt(throttle, "alice", "6.6.6.6", Future.succeededFuture("ok"));
    clock.advance(Duration.ofHours(23));
    unknown(throttle, "x", "6.6.6.6");
    assertThat(attempt(throttle, "alice", "6.6.6.6", Future.succeededFuture("ok")).succeeded())
        .isTrue();
    clock.advance(Duration.ofHours(1));
    unknown(throttle, "x", "6.6.6.6");
    assertThat(attempt(throttle, "alice", "6.6.6.6", Future.succeededFuture("ok")).succeeded())
        .as("a success renews it")
        .isTrue();
    clock.advance(Duration.ofDays(1));
    unknown(throttle, "x", "6.6.6.6");
    refusal(attempt(throttle, "alice", "6.6.6.6", Future.succeededFuture("ok")));
  }

  /**
   * One user's logins are checked one after another, the lock looked at again at each turn: the
   * guesses in line behind the one that locks the user are refused without being checked.
   */
  @Test
  void oneUsersLogins_checkedInTurn_thoseBehindALockRefusedUnchecked() {
    LoginThrottle throttle = throttle(2, 0, 100);
    Promise<String> first = Promise.promise();
    Promise<String> second = Promise.promise();
    int[] checked = {0};
    Future<String> a = attempt(throttle, "alice", "c1", first.future());
    Future<String> b =
        throttle.attempt(
            "diku", "alice", "c1", () -> second.future(), LoginThrottleTest::failureOf);
    Future<String> c =
        throttle.attempt(
            "diku",
            "alice",
            "c1",
            () -> {
              checked[0]++;
              return Future.succeededFuture("ok");
            },
            LoginThrottleTest::failureOf);
    assertThat(attempt(throttle, "bob", "c1", Future.succeededFuture("ok")).succeeded())
        .as("another user, beside the line")
        .isTrue();
    assertThat(b.isComplete()).as("in line").isFalse();
    first.fail(WRONG);
    assertThat(a.cause()).isSameAs(WRONG);
    assertThat(c.isComplete()).as("still in line").isFalse();
    second.fail(WRONG);
    assertThat(b.cause()).isSameAs(WRONG);
    assertThat(refusal(c).getMessage()).contains("too many failed logins of alice");
    assertThat(checked[0]).as("checked after the lock").isZero();
  }

  @Test
  void oneUsersLine_bounded() {
    LoginThrottle throttle = throttle(5, 0, 2);
    Promise<String> first = Promise.promise();
    attempt(throttle, "alice", null, first.future());
    Future<String> second = attempt(throttle, "alice", null, Future.succeededFuture("ok"));
    ApiException full = refusal(attempt(throttle, "alice", null, Future.succeededFuture("ok")));
    assertThat(full.getMessage()).contains("too many logins of alice waiting");
    first.complete("ok");
    assertThat(second.result()).isEqualTo("ok");
  }

  @Test
  void checksWaiting_bounded_429WithRetryAfter_untilOneEnds() {
    LoginThrottle throttle = throttle(5, 0, 2);
    Promise<String> a = Promise.promise();
    Promise<String> b = Promise.promise();
    attempt(throttle, "a", null, a.future());
    attempt(throttle, "b", null, b.future());
    clock.advance(Duration.ofSeconds(3));
    ApiException full = refusal(attempt(throttle, "c", null, Future.succeededFuture("ok")));
    assertThat(full.retryAfterSeconds()).isPositive();
    assertThat(full.getMessage()).contains("waiting for their password check");
    a.complete("ok");
    assertThat(attempt(throttle, "c", null, Future.succeededFuture("ok")).succeeded()).isTrue();
    Promise<String> c = Promise.promise();
    attempt(throttle, "c", null, c.future());
    refusal(attempt(throttle, "d", null, Future.succeededFuture("ok")));
  }

  @Test
  void options_outOfRange_refusedNamingTheSetting() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new LoginThrottleOptions(-1, Duration.ofMinutes(1), 0, 1))
        .hasMessageContaining("login.fail.attempts");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new LoginThrottleOptions(5, Duration.ZERO, 0, 1))
        .hasMessageContaining("login.fail.timeout");
  }
}
