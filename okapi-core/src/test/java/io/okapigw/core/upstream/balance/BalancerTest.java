package io.okapigw.core.upstream.balance;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.upstream.balance.Pick.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The balancer's state machine on a fake clock: least calls in flight, round-robin among equals,
 * ejection after consecutive failures within the window, a back-off that grows on each return that
 * fails and falls again while the instance stays well, never all instances ejected, the retry
 * budget.
 */
class BalancerTest {

  private static final String A = "http://a:1";
  private static final String B = "http://b:1";
  private static final String C = "http://c:1";

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  /** The defaults with a longer cap, so the back-off's levels show: 2, 4, 8, then 15 s. */
  private static final BalanceOptions LEVELS = maxEjection(Duration.ofSeconds(15));

  private Balancer balancer = Balancer.create(LEVELS, now::get, registry);

  private static Instances instances(String... urls) {
    return Instances.of("mod-a-1.0.0", List.of(urls));
  }

  private Pick pick(Instances instances) {
    return balancer.choose(instances, List.of(), false);
  }

  private void fail(Instances instances, String url, int times) {
    for (int i = 0; i < times; i++) {
      Pick pick = pickOf(instances, url);
      pick.done(Outcome.FAILED);
    }
  }

  /** Picks until {@code url} comes (the others' picks given back as successes). */
  private Pick pickOf(Instances instances, String url) {
    for (int i = 0; i < 10; i++) {
      Pick pick = pick(instances);
      if (pick.endpoint().url().equals(url)) {
        return pick;
      }
      pick.done(Outcome.SUCCEEDED);
    }
    throw new AssertionError(url + " never chosen");
  }

  private void advance(Duration by) {
    now.addAndGet(by.toNanos());
  }

  private List<String> picks(Instances instances, int count) {
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Pick pick = pick(instances);
      urls.add(pick.endpoint().url());
      pick.done(Outcome.SUCCEEDED);
    }
    return urls;
  }

  @Test
  void equalLoad_roundRobin() {
    assertThat(picks(instances(A, B, C), 6)).containsExactly(A, B, C, A, B, C);
  }

  @Test
  void busyInstance_leastOutstandingChosen() {
    Instances two = instances(A, B);
    Pick first = pick(two);
    Pick second = pick(two);
    Pick third = pick(two);
    assertThat(List.of(first.endpoint().url(), second.endpoint().url())).containsExactly(A, B);
    // A and B have one each; third went to A (round-robin), so B has fewer now
    assertThat(third.endpoint().url()).isEqualTo(A);
    assertThat(pick(two).endpoint().url()).isEqualTo(B);
  }

  @Test
  void fiveConsecutiveFailures_ejected_thenNeverChosen() {
    Instances two = instances(A, B);
    fail(two, A, 4);
    assertThat(picks(two, 4)).contains(A);
    fail(two, A, 5);
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).ejected()).isTrue();
    assertThat(picks(two, 6)).containsOnly(B);
    assertThat(registry.get("okapi.module.ejections").tag("instance", A).counter().count())
        .isEqualTo(1);
  }

  @Test
  void successBetweenFailures_countStartsAgain() {
    Instances two = instances(A, B);
    for (int i = 0; i < 3; i++) {
      fail(two, A, 4);
      pickOf(two, A).done(Outcome.SUCCEEDED);
    }
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).ejected()).isFalse();
  }

  @Test
  void failuresFurtherApartThanTheWindow_neverEject() {
    Instances two = instances(A, B);
    for (int i = 0; i < 10; i++) {
      fail(two, A, 1);
      advance(Duration.ofSeconds(11));
    }
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).ejected()).isFalse();
  }

  @Test
  void ejection_endsAfterBackOff_returnedInstanceChosenAgain_successKeepsIt() {
    Instances two = instances(A, B);
    fail(two, A, 5);
    advance(Duration.ofMillis(1999));
    assertThat(picks(two, 4)).containsOnly(B);
    advance(Duration.ofMillis(1));
    assertThat(picks(two, 4)).contains(A);
    // it succeeded on its return: a failure now is one of five again
    fail(two, A, 1);
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).ejected()).isFalse();
  }

  @Test
  void returnedInstance_oneTrialCallAtATime_untilItSucceeds() {
    Instances two = instances(A, B);
    fail(two, A, 5);
    advance(Duration.ofSeconds(2));
    Pick trial = pickOf(two, A);
    List<Pick> busy = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      busy.add(pick(two));
    }
    assertThat(busy).extracting(p -> p.endpoint().url()).containsOnly(B);
    trial.done(Outcome.SUCCEEDED);
    assertThat(pick(two).endpoint().url()).as("well again: the fewest in flight").isEqualTo(A);
  }

  @Test
  void failingAgainOnReturn_ejectedAtOnce_forTwiceAsLong_upToTheMax() {
    Instances two = instances(A, B);
    fail(two, A, 5);
    List<Long> ejections = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      InstanceView view = balancer.view("mod-a-1.0.0", Endpoint.parse(A));
      ejections.add(view.ejectedForMillis());
      advance(Duration.ofMillis(view.ejectedForMillis()));
      fail(two, A, 1);
    }
    assertThat(ejections).containsExactly(2000L, 4000L, 8000L, 15000L, 15000L, 15000L);
  }

  @Test
  void wellForAWhileAfterReturn_backOffFallsAgain() {
    Instances two = instances(A, B);
    fail(two, A, 5);
    for (int i = 0; i < 3; i++) { // 2 s, 4 s, 8 s, then 15 s: the fourth ejection
      advance(
          Duration.ofMillis(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).ejectedForMillis()));
      fail(two, A, 1);
    }
    advance(Duration.ofSeconds(15));
    pickOf(two, A).done(Outcome.SUCCEEDED);
    advance(Duration.ofSeconds(30)); // well for two max-ejections: two levels down, from 4 to 2
    fail(two, A, 5);
    // the fifth ejection at level 3 (8 s), not 5 (15 s, the cap)
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).ejectedForMillis()).isEqualTo(8000L);
  }

  @Test
  void allInstancesFailing_neverAllEjected() {
    Instances two = instances(A, B);
    fail(two, A, 5);
    fail(two, B, 20);
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(B)).ejected()).isFalse();
    assertThat(picks(two, 3)).containsOnly(B);
    Instances one = instances(C);
    fail(one, C, 20);
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(C)).ejected()).isFalse();
  }

  @Test
  void maxEjectedPercent_capsEjectionsOfAModule() {
    Instances four = instances(A, B, C, "http://d:1");
    fail(four, A, 5);
    fail(four, B, 5);
    fail(four, C, 5);
    long ejected =
        four.endpoints().stream()
            .filter(e -> balancer.view("mod-a-1.0.0", e) != null)
            .filter(e -> balancer.view("mod-a-1.0.0", e).ejected())
            .count();
    assertThat(ejected).as("50% of four").isEqualTo(2);
  }

  @Test
  void abandonedCallsAtOnce_sayNothing() {
    Instances two = instances(A, B);
    for (int i = 0; i < 10; i++) {
      pickOf(two, A).done(Outcome.ABANDONED);
    }
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).consecutiveFailures()).isZero();
  }

  @Test
  void triedInstances_skipped_noneLeft_null() {
    Instances two = instances(A, B);
    Pick other = balancer.choose(two, List.of(Endpoint.parse(A)), false);
    assertThat(other.endpoint().url()).isEqualTo(B);
    assertThat(balancer.choose(two, List.of(Endpoint.parse(A), Endpoint.parse(B)), false)).isNull();
  }

  @Test
  void retryBudget_percentOfCallsInFlight_withAMinimum() {
    balancer = Balancer.create(LEVELS.withRetryBudget(20, 2), now::get, registry);
    Instances two = instances(A, B);
    List<Pick> inFlight = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      inFlight.add(pick(two));
    }
    // 10 calls in flight: 20% is 2; 2 retries go, the third is refused
    assertThat(balancer.takeRetry("mod-a-1.0.0")).isTrue();
    inFlight.add(balancer.choose(two, List.of(), true));
    assertThat(balancer.takeRetry("mod-a-1.0.0")).isTrue();
    inFlight.add(balancer.choose(two, List.of(), true));
    assertThat(balancer.takeRetry("mod-a-1.0.0")).isFalse();
    // a retry done gives its place back
    inFlight.get(10).done(Outcome.SUCCEEDED);
    assertThat(balancer.takeRetry("mod-a-1.0.0")).isTrue();
    assertThat(registry.get("okapi.module.retry.budget.exhausted").counter().count()).isEqualTo(1);
    assertThat(registry.get("okapi.module.retries").counter().count()).isEqualTo(3);
  }

  @Test
  void healthCheck_failureCounts_answerTakesBack() {
    Instances two = instances(A, B);
    picks(two, 2);
    for (int i = 0; i < 5; i++) {
      balancer.checked("mod-a-1.0.0", Endpoint.parse(A), false);
    }
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).ejected()).isTrue();
    balancer.checked("mod-a-1.0.0", Endpoint.parse(A), true);
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).ejected()).isFalse();
    assertThat(picks(two, 2)).contains(A);
  }

  @Test
  void failuresZero_neverEjects() {
    balancer = Balancer.create(LEVELS.withFailures(0), now::get, registry);
    Instances two = instances(A, B);
    fail(two, A, 50);
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).ejected()).isFalse();
  }

  private static BalanceOptions maxEjection(Duration max) {
    BalanceOptions d = BalanceOptions.defaults();
    return new BalanceOptions(
        d.failures(),
        d.window(),
        d.ejection(),
        max,
        d.maxEjectedPercent(),
        d.retryPutDelete(),
        d.retryBudgetPercent(),
        d.minRetries(),
        d.checkInterval(),
        d.stall(),
        d.abandonedAfter(),
        d.latencyDecay());
  }

  @Test
  void byDefault_aDeadInstanceTriedAgainEvery4sAtMost() {
    balancer = Balancer.create(BalanceOptions.defaults(), now::get, registry);
    Instances two = instances(A, B);
    fail(two, A, 5);
    List<Long> ejections = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      InstanceView view = balancer.view("mod-a-1.0.0", Endpoint.parse(A));
      ejections.add(view.ejectedForMillis());
      advance(Duration.ofMillis(view.ejectedForMillis()));
      fail(two, A, 1);
    }
    assertThat(ejections).containsExactly(2000L, 4000L, 4000L, 4000L);
  }

  @Test
  void brokeProtocol_ejectedAtOnce_checksTakeItNotBack_ownConnectionsForAMinute() {
    Instances two = instances(A, B);
    picks(two, 2);
    balancer.brokeProtocol("mod-a-1.0.0", Endpoint.parse(A), "a second answer");
    assertThat(picks(two, 4)).containsOnly(B);
    assertThat(registry.get("okapi.module.protocol.violations").counter().count()).isEqualTo(1);
    assertThat(registry.get("okapi.module.ejections").counter().count()).isEqualTo(1);
    balancer.checked("mod-a-1.0.0", Endpoint.parse(A), true);
    assertThat(balancer.view("mod-a-1.0.0", Endpoint.parse(A)).ejected())
        .as("ejected after a check answered")
        .isTrue();
    advance(LEVELS.ejection());
    Pick back = pickOf(two, A);
    assertThat(back.connectionOfItsOwn()).as("a call right after the ejection").isTrue();
    back.done(Outcome.SUCCEEDED);
    advance(Balancer.PROTOCOL_PROBATION);
    Pick later = pickOf(two, A);
    assertThat(later.connectionOfItsOwn()).as("a call a minute after").isFalse();
  }

  @Test
  void brokeProtocol_lastInstance_neverEjected_butOwnConnections() {
    Instances one = instances(A);
    picks(one, 1);
    balancer.brokeProtocol("mod-a-1.0.0", Endpoint.parse(A), "bytes on an idle connection");
    Pick pick = pick(one);
    assertThat(pick.endpoint().url()).isEqualTo(A);
    assertThat(pick.connectionOfItsOwn()).isTrue();
  }
}
