package io.okapigw.core.upstream.balance;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;

/**
 * How the gateway chooses among a module's instances and when it calls another one ({@code
 * proxy.outlier.*}, {@code proxy.retry.*}, {@code proxy.latency-decay} settings, declared here).
 *
 * @param failures consecutive failures (connect failure, reset, timeout, 5xx) that eject an
 *     instance; 0: never eject (default 5)
 * @param window failures further apart than this start the count again (default 10 s)
 * @param ejection how long a first ejection lasts; each further one twice as long (default 2 s)
 * @param maxEjection the longest ejection (default 4 s)
 * @param maxEjectedPercent most instances of a module ejected at once, in percent of them; one of
 *     two or more may always be, never all (default 50)
 * @param retryPutDelete whether PUT and DELETE are retried after a reset too (default false)
 * @param retryBudgetPercent retries in flight at most this share of a module's calls in flight
 *     (default 20)
 * @param minRetries retries in flight a module is allowed however few its calls (default 3)
 * @param checkInterval how often each instance the node calls is checked as {@code
 *     /_/discovery/health} checks it; 0: never (default)
 * @param stall an instance with calls in flight that answers none of them for this long is out of
 *     the choice until it answers again, a call or a check (checked every second meanwhile); 0:
 *     never (default 2 s)
 * @param abandonedAfter a call its caller gave up after waiting this long counts as the instance's
 *     failure (default 5 s)
 * @param latencyDecay the time constant of the instances' latency estimates (peak EWMA; default 10
 *     s, as Finagle's and Linkerd's)
 */
public record BalanceOptions(
    int failures,
    Duration window,
    Duration ejection,
    Duration maxEjection,
    int maxEjectedPercent,
    boolean retryPutDelete,
    int retryBudgetPercent,
    int minRetries,
    Duration checkInterval,
    Duration stall,
    Duration abandonedAfter,
    Duration latencyDecay) {

  public static final int DEFAULT_FAILURES = 5;
  public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);
  public static final Duration DEFAULT_EJECTION = Duration.ofSeconds(2);
  public static final Duration DEFAULT_MAX_EJECTION = Duration.ofSeconds(4);
  public static final int DEFAULT_MAX_EJECTED_PERCENT = 50;
  public static final int DEFAULT_RETRY_BUDGET_PERCENT = 20;
  public static final int DEFAULT_MIN_RETRIES = 3;
  public static final Duration DEFAULT_STALL = Duration.ofSeconds(2);
  public static final Duration DEFAULT_ABANDONED_AFTER = Duration.ofSeconds(5);
  public static final Duration DEFAULT_LATENCY_DECAY = Duration.ofSeconds(10);

  private static final Duration MS = Duration.ofMillis(1);
  private static final Duration DAY = Duration.ofDays(1);

  public static final Setting<Integer> FAILURES =
      Setting.integer("proxy.outlier.failures", DEFAULT_FAILURES, 0, 1000)
          .about(
              "consecutive failures of a module instance (connect failure, reset, timeout, 5xx)"
                  + " that eject it from the choice; 0: never eject")
          .details(
              "A returning instance that fails again is ejected at once, for twice as long."
                  + " Learned per node from every call (handler, filters, auth filter, system"
                  + " calls, `/_/discovery/health` checks).");

  public static final Setting<Duration> WINDOW =
      Setting.duration("proxy.outlier.window", DEFAULT_WINDOW, MS, DAY)
          .about("failures further apart than this start the count of consecutive ones again");

  public static final Setting<Duration> EJECTION =
      Setting.duration("proxy.outlier.ejection", DEFAULT_EJECTION, MS, DAY)
          .about(
              "how long an instance's first ejection lasts; each further one (the instance failed"
                  + " again soon after its return) twice as long, up to `proxy.outlier.max-ejection`");

  public static final Setting<Duration> MAX_EJECTION =
      Setting.duration("proxy.outlier.max-ejection", DEFAULT_MAX_EJECTION, MS, DAY)
          .about(
              "the longest ejection: a dead instance is tried again this often, a returning one"
                  + " taken back within it");

  public static final Setting<Integer> MAX_EJECTED_PERCENT =
      Setting.integer("proxy.outlier.max-ejected-percent", DEFAULT_MAX_EJECTED_PERCENT, 0, 100)
          .about(
              "most instances of a module ejected at once, in percent of them; one of two or more"
                  + " always may be, never all");

  public static final Setting<Boolean> RETRY_PUT_DELETE =
      Setting.bool("proxy.retry.put-delete", false)
          .about(
              "retry PUT and DELETE too (not only GET, HEAD, OPTIONS) on another instance when the"
                  + " connection breaks before any answer; only if the modules make them"
                  + " idempotent")
          .details(
              "A call that never reached an instance (refused, connect timeout) goes to another"
                  + " whatever its method; a request with a body only then.");

  public static final Setting<Integer> RETRY_BUDGET_PERCENT =
      Setting.integer("proxy.retry.budget-percent", DEFAULT_RETRY_BUDGET_PERCENT, 0, 100)
          .about(
              "retries on another instance in flight at most this share of the module's calls in"
                  + " flight (then the failure is answered: 502 naming the module); a call that"
                  + " reached no instance is sent on without counting here");

  public static final Setting<Integer> MIN_RETRIES =
      Setting.integer("proxy.retry.min-budget", DEFAULT_MIN_RETRIES, 0, 10_000)
          .about("retries in flight a module is allowed however few its calls");

  public static final Setting<Duration> CHECK_INTERVAL =
      Setting.duration("proxy.outlier.check-interval", Duration.ZERO, Duration.ZERO, DAY)
          .about(
              "how often each module instance the node calls is checked as `/_/discovery/health`"
                  + " checks it (a GET of its URL, any answer is healthy); 0: never")
          .details(
              "A check that fails counts as a failed call; one that answers ends an ejection at"
                  + " once. Off by default: calls teach the node enough.");

  public static final Setting<Duration> STALL =
      Setting.duration("proxy.outlier.stall", DEFAULT_STALL, Duration.ZERO, DAY)
          .about(
              "a module instance with calls in flight that answers none of them for this long is"
                  + " out of the choice until it answers again; 0: never")
          .details(
              "A hung instance (stopped, frozen by a full GC or a deadlock) still accepts"
                  + " connections: without this it would be sent calls again once its callers"
                  + " gave up. While out it is checked every second as `/_/discovery/health` checks"
                  + " it (a GET of its URL, any answer is one), active checks on or off; an answer"
                  + " to a call of it in flight, or to a check, takes it back. Longer than the"
                  + " slowest call a module makes its callers wait, all of its instances alike.");

  public static final Setting<Duration> ABANDONED_AFTER =
      Setting.duration("proxy.outlier.abandoned-after", DEFAULT_ABANDONED_AFTER, MS, DAY)
          .about(
              "a call to a module instance that its caller gave up after waiting this long counts"
                  + " as the instance's failure, as a timeout does; one given up sooner says"
                  + " nothing of it")
          .details(
              "FOLIO modules give up on a call after their own timeout (10-60 s), mostly before"
                  + " the gateway's `proxy.idle-timeout`: an instance that makes them wait so long"
                  + " is failing them.");

  public static final Setting<Duration> LATENCY_DECAY =
      Setting.duration("proxy.latency-decay", DEFAULT_LATENCY_DECAY, MS, DAY)
          .about(
              "how fast a node forgets that a module instance answered slowly: the time constant"
                  + " of the latency estimate (peak EWMA) the instance choice weighs")
          .details(
              "A call goes to the instance whose latency (its estimate, or how long it has gone"
                  + " without answering its calls in flight, whichever is longer) times its calls"
                  + " in flight plus one is lowest, as Finagle's and Linkerd's peak-EWMA balancers"
                  + " choose. A slower answer raises the estimate at once; faster ones and time"
                  + " bring it down, so an instance avoided for being slow gets a call again"
                  + " now and then. Costs within twice the lowest (plus 1 ms) count as equal:"
                  + " among them, the fewest calls in flight, round-robin.");

  /** The {@code proxy.outlier.*}, {@code proxy.retry.*} and {@code proxy.latency-*} settings. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(
          FAILURES,
          WINDOW,
          EJECTION,
          MAX_EJECTION,
          MAX_EJECTED_PERCENT,
          RETRY_PUT_DELETE,
          RETRY_BUDGET_PERCENT,
          MIN_RETRIES,
          CHECK_INTERVAL,
          STALL,
          ABANDONED_AFTER,
          LATENCY_DECAY);

  public BalanceOptions {
    FAILURES.check(failures);
    WINDOW.check(window);
    EJECTION.check(ejection);
    MAX_EJECTION.check(maxEjection);
    MAX_EJECTED_PERCENT.check(maxEjectedPercent);
    RETRY_BUDGET_PERCENT.check(retryBudgetPercent);
    MIN_RETRIES.check(minRetries);
    CHECK_INTERVAL.check(checkInterval);
    STALL.check(stall);
    ABANDONED_AFTER.check(abandonedAfter);
    LATENCY_DECAY.check(latencyDecay);
    if (maxEjection.compareTo(ejection) < 0) {
      throw new IllegalArgumentException(
          "proxy.outlier.max-ejection must be at least proxy.outlier.ejection ("
              + EJECTION.format(ejection)
              + "), was "
              + MAX_EJECTION.format(maxEjection));
    }
  }

  /**
   * @return the defaults
   */
  public static BalanceOptions defaults() {
    return new BalanceOptions(
        DEFAULT_FAILURES,
        DEFAULT_WINDOW,
        DEFAULT_EJECTION,
        DEFAULT_MAX_EJECTION,
        DEFAULT_MAX_EJECTED_PERCENT,
        false,
        DEFAULT_RETRY_BUDGET_PERCENT,
        DEFAULT_MIN_RETRIES,
        Duration.ZERO,
        DEFAULT_STALL,
        DEFAULT_ABANDONED_AFTER,
        DEFAULT_LATENCY_DECAY);
  }

  /**
   * Reads the {@code proxy.outlier.*} and {@code proxy.retry.*} settings.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static BalanceOptions from(Settings settings) {
    return new BalanceOptions(
        settings.get(FAILURES),
        settings.get(WINDOW),
        settings.get(EJECTION),
        settings.get(MAX_EJECTION),
        settings.get(MAX_EJECTED_PERCENT),
        settings.get(RETRY_PUT_DELETE),
        settings.get(RETRY_BUDGET_PERCENT),
        settings.get(MIN_RETRIES),
        settings.get(CHECK_INTERVAL),
        settings.get(STALL),
        settings.get(ABANDONED_AFTER),
        settings.get(LATENCY_DECAY));
  }

  /**
   * @return these options with {@code failures} consecutive failures ejecting an instance
   */
  public BalanceOptions withFailures(int failures) {
    return new BalanceOptions(
        failures,
        window,
        ejection,
        maxEjection,
        maxEjectedPercent,
        retryPutDelete,
        retryBudgetPercent,
        minRetries,
        checkInterval,
        stall,
        abandonedAfter,
        latencyDecay);
  }

  /**
   * @return these options with a retry budget of {@code percent} and at least {@code min}
   */
  public BalanceOptions withRetryBudget(int percent, int min) {
    return new BalanceOptions(
        failures,
        window,
        ejection,
        maxEjection,
        maxEjectedPercent,
        retryPutDelete,
        percent,
        min,
        checkInterval,
        stall,
        abandonedAfter,
        latencyDecay);
  }

  /**
   * @return these options with instances checked every {@code interval} (0: never)
   */
  public BalanceOptions withCheckInterval(Duration interval) {
    return new BalanceOptions(
        failures,
        window,
        ejection,
        maxEjection,
        maxEjectedPercent,
        retryPutDelete,
        retryBudgetPercent,
        minRetries,
        interval,
        stall,
        abandonedAfter,
        latencyDecay);
  }

  /**
   * @return these options with instances out of the choice after {@code newStall} without an answer
   *     (0: never)
   */
  public BalanceOptions withStall(Duration newStall) {
    return new BalanceOptions(
        failures,
        window,
        ejection,
        maxEjection,
        maxEjectedPercent,
        retryPutDelete,
        retryBudgetPercent,
        minRetries,
        checkInterval,
        newStall,
        abandonedAfter,
        latencyDecay);
  }

  /**
   * @return these options with latency estimates forgotten with the time constant {@code decay}
   */
  public BalanceOptions withLatencyDecay(Duration decay) {
    return new BalanceOptions(
        failures,
        window,
        ejection,
        maxEjection,
        maxEjectedPercent,
        retryPutDelete,
        retryBudgetPercent,
        minRetries,
        checkInterval,
        stall,
        abandonedAfter,
        decay);
  }
}
