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
 * @param coldTimeout the same for an auth module that is cold ({@link ColdAuthModules}): not yet
 *     answered an auth call within {@code timeout} since it was first called or last unreachable
 * @param handlerTimeout how long a handler call to the module that provides the tenant's auth
 *     filter ({@code /authn/login}, ...) may wait for its answer; then 504, counted by the breaker
 * @param breakerFailures consecutive auth calls a module did not answer that open its breaker; 0:
 *     no breaker
 * @param probeInterval while a module's breaker is open, one auth call per interval tries it
 */
public record AuthOptions(
    Duration timeout,
    Duration coldTimeout,
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
                  + " this, not `proxy.idle-timeout`. Until it has answered one call within this"
                  + " (just started, or back after it could not be reached), an auth module has"
                  + " `auth.cold-timeout` instead.");

  /** Setting {@code auth.cold-timeout}. */
  public static final Setting<Duration> COLD_TIMEOUT =
      Setting.duration("auth.cold-timeout", Duration.ofSeconds(20), MS, DAY)
          .about(
              "how long a cold auth module may take to answer an auth-filter call: one that has"
                  + " not answered a call within `auth.timeout` since this node first called it,"
                  + " or since a call found it unreachable (no connection, reset: restarted);"
                  + " then as `auth.timeout`")
          .details(
              "A freshly started FOLIO auth chain (mod-authtoken, its /users and /perms look-ups"
                  + " through the gateway to cold modules) took over 3 s for its first decisions"
                  + " on a loaded machine; Okapi sets no limit. A module that answered in time"
                  + " once is warm until it cannot be reached: a hung module (its calls time out)"
                  + " stays warm, so it still costs each request `auth.timeout` and opens its"
                  + " breaker; one hung from its start costs its first requests this, then the"
                  + " breaker opens. Never shorter than `auth.timeout`.");

  /** Setting {@code auth.handler-timeout}. */
  public static final Setting<Duration> HANDLER_TIMEOUT =
      Setting.duration("auth.handler-timeout", Duration.ofSeconds(10), MS, DAY)
          .about(
              "how long the module that provides a tenant's auth filter may stay silent on a"
                  + " handler call of the tenant's (`/authn/login` and the rest of its API); then"
                  + " 504, counted by its breaker like an auth-filter call that timed out")
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
      SettingsSpec.of(TIMEOUT, COLD_TIMEOUT, HANDLER_TIMEOUT, BREAKER_FAILURES, PROBE_INTERVAL);

  /**
   * @throws IllegalArgumentException naming the setting out of range
   */
  public AuthOptions {
    TIMEOUT.check(timeout);
    COLD_TIMEOUT.check(coldTimeout);
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
   * @return the {@code auth.timeout}, {@code auth.cold-timeout}, {@code auth.handler-timeout} and
   *     {@code auth.breaker.*} settings, defaults for those not given
   */
  public static AuthOptions from(Settings settings) {
    return new AuthOptions(
        settings.get(TIMEOUT),
        settings.get(COLD_TIMEOUT),
        settings.get(HANDLER_TIMEOUT),
        settings.get(BREAKER_FAILURES),
        settings.get(PROBE_INTERVAL));
  }

  /**
   * @return these with another {@code auth.timeout}
   */
  public AuthOptions withTimeout(Duration newTimeout) {
    return new AuthOptions(newTimeout, coldTimeout, handlerTimeout, breakerFailures, probeInterval);
  }

  /**
   * @return these with another {@code auth.cold-timeout}
   */
  public AuthOptions withColdTimeout(Duration newTimeout) {
    return new AuthOptions(timeout, newTimeout, handlerTimeout, breakerFailures, probeInterval);
  }

  /**
   * @return these with another {@code auth.handler-timeout}
   */
  public AuthOptions withHandlerTimeout(Duration newTimeout) {
    return new AuthOptions(timeout, coldTimeout, newTimeout, breakerFailures, probeInterval);
  }

  /**
   * @return these with another breaker
   */
  public AuthOptions withBreaker(int failures, Duration interval) {
    return new AuthOptions(timeout, coldTimeout, handlerTimeout, failures, interval);
  }
}
