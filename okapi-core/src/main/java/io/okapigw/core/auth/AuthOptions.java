package io.okapigw.core.auth;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;
import java.util.Map;

/**
 * How the auth stage treats an auth module that does not answer ({@code auth.timeout}, {@code
 * auth.cold-timeout}, {@code auth.handler-timeout}, {@code auth.breaker.*}): each setting declared
 * once below.
 *
 * @param timeout how long an auth-filter call may wait for the auth module's answer; then it fails
 *     (503, or the expired decision with {@code auth.cache.stale-if-error})
 * @param coldTimeout the same for an auth module that is cold ({@link ColdAuthModules}): in its
 *     warm-up, since this node first called it or last found it unreachable
 * @param warmUp how long an auth module is cold
 * @param handlerTimeout how long a handler call to the module that provides the tenant's auth
 *     filter ({@code /authn/login}, ...) may wait for its answer; then 504, counted by the breaker
 * @param breakerFailures consecutive auth calls a module did not answer that open its breaker; 0:
 *     no breaker
 * @param probeInterval while a module's breaker is open, one auth call per interval tries it
 */
public record AuthOptions(
    Duration timeout,
    Duration coldTimeout,
    Duration warmUp,
    Duration handlerTimeout,
    int breakerFailures,
    Duration probeInterval) {

  private static final Duration MS = Duration.ofMillis(1);
  private static final Duration DAY = Duration.ofDays(1);

  /** Setting {@code auth.timeout}. */
  public static final Setting<Duration> TIMEOUT =
      Setting.duration("auth.timeout", Duration.ofSeconds(3), MS, DAY)
          .about(
              "how long an auth module may take to answer an auth-filter call; then 503, or the"
                  + " expired decision with `auth.cache.stale-if-error`")
          .details(
              "A warm auth module answers in milliseconds: a hung one costs each request at most"
                  + " this, not `proxy.idle-timeout`. In its `auth.warm-up` (just started, or back"
                  + " after it could not be reached) an auth module has `auth.cold-timeout`"
                  + " instead.");

  /** Setting {@code auth.cold-timeout}. */
  public static final Setting<Duration> COLD_TIMEOUT =
      Setting.duration("auth.cold-timeout", Duration.ofSeconds(60), MS, DAY)
          .about(
              "how long an auth module in its `auth.warm-up` may take to answer an auth-filter"
                  + " call or a handler call of a tenant's (`/token/sign`, `/authn/login`); then as"
                  + " `auth.timeout`")
          .details(
              "A freshly started FOLIO auth chain (mod-authtoken making its /users and /perms"
                  + " look-ups through the gateway to modules as cold as it is) took over 3 s for"
                  + " its first decisions on a loaded machine, and behind Okapi (which sets no"
                  + " limit) a cold chain's first login took 40 s beside a loaded CPU: as long as"
                  + " any module call may stay silent (`proxy.idle-timeout`). Its handler calls"
                  + " too: a cold mod-authtoken signing a login's token (mod-login's `/token/sign`"
                  + " through the gateway) took over `auth.handler-timeout` there. A module hung"
                  + " in its warm-up costs its first requests this, until its breaker opens"
                  + " (`auth.breaker.failures`). Never shorter than `auth.timeout`.");

  /** Setting {@code auth.warm-up}. */
  public static final Setting<Duration> WARM_UP =
      Setting.duration("auth.warm-up", Duration.ofMinutes(5), Duration.ZERO, DAY)
          .about(
              "how long an auth module counts as cold, its auth-filter calls bounded by"
                  + " `auth.cold-timeout`: from this node's first call to it, and again from a"
                  + " call that found it unreachable (no connection, reset: restarting); 0: never"
                  + " cold")
          .details(
              "After it, a hung auth module costs each request `auth.timeout`. A node learns"
                  + " that a module restarted only from a call that found it unreachable: one"
                  + " restarted while no request came is not cold again.");

  /** Setting {@code auth.handler-timeout}. */
  public static final Setting<Duration> HANDLER_TIMEOUT =
      Setting.duration("auth.handler-timeout", Duration.ofSeconds(10), MS, DAY)
          .about(
              "how long the module that provides a tenant's auth filter may stay silent on a"
                  + " handler call of the tenant's (`/authn/login` and the rest of its API); then"
                  + " 504, counted by its breaker like an auth-filter call that timed out;"
                  + " `auth.cold-timeout` while the module is in its `auth.warm-up`")
          .details(
              "While that module's breaker is open (`auth.breaker.failures`) such calls get 503"
                  + " with `Retry-After` at once, without reaching it. Longer than `auth.timeout`:"
                  + " a login waits for its password hash (`login.hash-queue` in the authtoken"
                  + " module); shorter than a login client's own timeout (15 s in FOLIO's UI), so"
                  + " that the client hears why.");

  /** Setting {@code auth.breaker.failures}. */
  public static final Setting<Integer> BREAKER_FAILURES =
      Setting.integer("auth.breaker.failures", 5, 0, 1_000_000)
          .about(
              "an auth module that did not answer this many calls in a row (auth-filter calls and"
                  + " handler calls to it; no connection, reset, `auth.timeout`,"
                  + " `auth.handler-timeout`) is not asked while its breaker is open: expired"
                  + " decisions are served stale at once (`auth.cache.stale-if-error`), other"
                  + " requests and its own API (`/authn/login`) get 503 with `Retry-After` at"
                  + " once; 0: no breaker")
          .details(
              "One call per `auth.breaker.probe-interval` tries the module again; its answer (a"
                  + " refusal too) closes the breaker. Counted per auth module and node.");

  /** Setting {@code auth.breaker.probe-interval}. */
  public static final Setting<Duration> PROBE_INTERVAL =
      Setting.duration("auth.breaker.probe-interval", Duration.ofSeconds(1), MS, DAY)
          .about("while an auth module's breaker is open, one auth call per interval tries it");

  /** The settings, in documentation order. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(
          TIMEOUT, COLD_TIMEOUT, WARM_UP, HANDLER_TIMEOUT, BREAKER_FAILURES, PROBE_INTERVAL);

  /**
   * @throws IllegalArgumentException naming the setting out of range
   */
  public AuthOptions {
    TIMEOUT.check(timeout);
    COLD_TIMEOUT.check(coldTimeout);
    WARM_UP.check(warmUp);
    HANDLER_TIMEOUT.check(handlerTimeout);
    BREAKER_FAILURES.check(breakerFailures);
    PROBE_INTERVAL.check(probeInterval);
  }

  /**
   * @return every setting at its declared default
   */
  public static AuthOptions defaults() {
    return from(Settings.of(Map.of()));
  }

  /**
   * @param settings flags and conf file
   * @return the {@code auth.timeout}, {@code auth.cold-timeout}, {@code auth.warm-up}, {@code
   *     auth.handler-timeout} and {@code auth.breaker.*} settings, defaults for those not given
   */
  public static AuthOptions from(Settings settings) {
    return new AuthOptions(
        settings.get(TIMEOUT),
        settings.get(COLD_TIMEOUT),
        settings.get(WARM_UP),
        settings.get(HANDLER_TIMEOUT),
        settings.get(BREAKER_FAILURES),
        settings.get(PROBE_INTERVAL));
  }

  /**
   * @return these with another {@code auth.timeout}
   */
  public AuthOptions withTimeout(Duration newTimeout) {
    return new AuthOptions(
        newTimeout, coldTimeout, warmUp, handlerTimeout, breakerFailures, probeInterval);
  }

  /**
   * @return these with another {@code auth.cold-timeout}
   */
  public AuthOptions withColdTimeout(Duration newTimeout) {
    return new AuthOptions(
        timeout, newTimeout, warmUp, handlerTimeout, breakerFailures, probeInterval);
  }

  /**
   * @return these with another {@code auth.warm-up}
   */
  public AuthOptions withWarmUp(Duration newWarmUp) {
    return new AuthOptions(
        timeout, coldTimeout, newWarmUp, handlerTimeout, breakerFailures, probeInterval);
  }

  /**
   * @return these with another {@code auth.handler-timeout}
   */
  public AuthOptions withHandlerTimeout(Duration newTimeout) {
    return new AuthOptions(
        timeout, coldTimeout, warmUp, newTimeout, breakerFailures, probeInterval);
  }

  /**
   * @return these with another breaker
   */
  public AuthOptions withBreaker(int failures, Duration interval) {
    return new AuthOptions(timeout, coldTimeout, warmUp, handlerTimeout, failures, interval);
  }
}
