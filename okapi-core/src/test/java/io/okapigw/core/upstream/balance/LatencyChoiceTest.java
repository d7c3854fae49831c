package io.okapigw.core.upstream.balance;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.upstream.balance.Pick.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Instances that answer slowly or not at all, on a fake clock: a call every 10 ms goes to the
 * instance the balancer chooses, each instance answers after its latency (or never: its caller
 * gives up after 10 s, as a FOLIO module's client does). A hung instance stops getting calls within
 * a second and stays out after its calls are given up, until it answers again; a slow one gets a
 * call now and then; calls given up after a long wait count against the instance.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LatencyChoiceTest {

  private static final String MODULE = "mod-a-1.0.0";
  private static final String A = "http://a:1";
  private static final String B = "http://b:1";
  private static final String C = "http://c:1";
  private static final Duration TICK = Duration.ofMillis(10);
  private static final Duration CALLER_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration FAST = Duration.ofMillis(20);

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final Balancer balancer =
      Balancer.create(BalanceOptions.defaults(), now::get, new SimpleMeterRegistry());
  private final Instances three = Instances.of(MODULE, List.of(A, B, C));

  /** A call in flight: its pick, when it ends and how. */
  private record InFlight(Pick pick, long endsAt, Outcome outcome) {}

  private final List<InFlight> inFlight = new ArrayList<>();

  /** The instance's latency at {@code elapsed} since the run began; null: it never answers. */
  private interface Behaviour extends BiFunction<String, Duration, Duration> {}

  /**
   * Sends a call every tick for {@code length}, each instance behaving as {@code behaviour} says.
   *
   * @return the picks of each instance from {@code from} on
   */
  private Map<String, Integer> run(Duration length, Duration from, Behaviour behaviour) {
    return run(length, from, 1, behaviour);
  }

  /** As above, {@code burst} calls at once every tick (a check-out's calls of one phase). */
  private Map<String, Integer> run(Duration length, Duration from, int burst, Behaviour behaviour) {
    long start = now.get();
    Map<String, Integer> picks = new HashMap<>();
    while (now.get() - start < length.toNanos()) {
      finishDue();
      Duration elapsed = Duration.ofNanos(now.get() - start);
      for (int i = 0; i < burst; i++) {
        Pick pick = balancer.choose(three, List.of(), false);
        String url = pick.endpoint().url();
        if (elapsed.compareTo(from) >= 0) {
          picks.merge(url, 1, Integer::sum);
        }
        Duration latency = behaviour.apply(url, elapsed);
        inFlight.add(
            latency == null
                ? new InFlight(pick, now.get() + CALLER_TIMEOUT.toNanos(), Outcome.ABANDONED)
                : new InFlight(pick, now.get() + latency.toNanos(), Outcome.SUCCEEDED));
      }
      now.addAndGet(TICK.toNanos());
    }
    finishDue();
    return picks;
  }

  private void finishDue() {
    inFlight.removeIf(
        call -> {
          if (call.endsAt() - now.get() > 0) {
            return false;
          }
          call.pick().done(call.outcome());
          return true;
        });
  }

  private InstanceView view(String url) {
    return balancer.view(MODULE, Endpoint.parse(url));
  }

  @Test
  void hungInstance_noNewCallsAfterASecond_notEvenOnceItsCallsAreGivenUp() {
    run(Duration.ofSeconds(5), Duration.ZERO, (url, t) -> FAST);

    Map<String, Integer> picks =
        run(Duration.ofSeconds(30), Duration.ofSeconds(1), (url, t) -> url.equals(C) ? null : FAST);

    assertThat(picks.getOrDefault(C, 0)).as("calls to the hung instance after 1 s").isZero();
    assertThat(picks.get(A) + picks.get(B)).isGreaterThan(2500);
    assertThat(view(C).stalled()).isTrue();
  }

  @Test
  void stalledInstance_backOnlyOnceItAnswersAProbe() {
    run(Duration.ofSeconds(5), Duration.ZERO, (url, t) -> FAST);
    run(Duration.ofSeconds(30), Duration.ZERO, (url, t) -> url.equals(C) ? null : FAST);
    assertThat(inFlight)
        .as("every call to C given up")
        .allMatch(c -> !c.pick().endpoint().url().equals(C));

    balancer.checked(MODULE, Endpoint.parse(C), false);
    assertThat(run(Duration.ofSeconds(60), Duration.ZERO, (url, t) -> FAST)).doesNotContainKey(C);

    balancer.checked(MODULE, Endpoint.parse(C), true);
    assertThat(view(C).stalled()).isFalse();
    assertThat(run(Duration.ofSeconds(5), Duration.ZERO, (url, t) -> FAST).get(C))
        .as("calls to C once it answered")
        .isGreaterThan(100);
  }

  @Test
  void stalledInstance_aCallInFlightAnswered_backAtOnce() {
    run(Duration.ofSeconds(1), Duration.ZERO, (url, t) -> FAST);
    Pick hung = balancer.choose(three, List.of(Endpoint.parse(A), Endpoint.parse(B)), false);
    now.addAndGet(Duration.ofSeconds(3).toNanos());
    assertThat(view(C).stalled()).as("no answer for 3 s with a call in flight").isTrue();

    hung.done(Outcome.SUCCEEDED);

    assertThat(view(C).stalled()).isFalse();
  }

  @Test
  void slowInstance_getsACallOnlyNowAndThen() {
    Duration slow = Duration.ofMillis(1500);

    Map<String, Integer> picks =
        run(Duration.ofSeconds(60), Duration.ZERO, 4, (url, t) -> url.equals(C) ? slow : FAST);

    int total = picks.values().stream().mapToInt(Integer::intValue).sum();
    assertThat(picks.getOrDefault(C, 0))
        .as("calls to the slow instance, of %d: %s", total, picks)
        .isLessThan(total / 1000);
  }

  @Test
  void equallyFastInstances_shareTheCalls() {
    Map<String, Integer> picks = run(Duration.ofSeconds(30), Duration.ZERO, (url, t) -> FAST);

    int total = picks.values().stream().mapToInt(Integer::intValue).sum();
    assertThat(picks.values()).allSatisfy(n -> assertThat(n).isBetween(total / 5, total / 2));
  }

  @Test
  void callsGivenUpAfterALongWait_countAgainstTheInstance_ejectIt() {
    Instances two = Instances.of(MODULE, List.of(A, B));
    List<Pick> waiting = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      waiting.add(balancer.choose(two, List.of(Endpoint.parse(B)), false));
    }
    now.addAndGet(CALLER_TIMEOUT.toNanos());

    waiting.forEach(pick -> pick.done(Outcome.ABANDONED));

    assertThat(view(A).ejected()).isTrue();
  }

  @Test
  void callsGivenUpAtOnce_sayNothing() {
    Instances two = Instances.of(MODULE, List.of(A, B));
    for (int i = 0; i < 10; i++) {
      Pick pick = balancer.choose(two, List.of(), false);
      now.addAndGet(Duration.ofMillis(100).toNanos());
      pick.done(Outcome.ABANDONED);
    }
    assertThat(view(A).consecutiveFailures()).isZero();
    assertThat(view(A).ejected()).isFalse();
  }
}
