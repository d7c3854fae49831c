package io.okapigw.core.server;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;

/**
 * How a node drains when it is told to stop (SIGTERM: {@code docker stop}, Kubernetes, systemd):
 * readiness turns false at once; for {@code readinessDelay} it goes on serving (so that a load
 * balancer checking readiness takes it out of rotation meanwhile); then it refuses new client
 * requests (503) but serves the call backs of the requests in flight, and closes its listeners once
 * these are answered, or {@code drainTimeout} later ({@code shutdown.*} settings).
 *
 * @param drainTimeout how long the requests in flight at the end of the readiness delay may take;
 *     connections still busy then are closed (default 5 s)
 * @param readinessDelay how long the node goes on serving after readiness turned false, every
 *     answer with {@code Connection: close} (default 3 s: a load balancer checking readiness every
 *     second, out after two failed checks, sees it in time)
 */
public record DrainOptions(Duration drainTimeout, Duration readinessDelay) {

  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_READINESS_DELAY = Duration.ofSeconds(3);
  private static final Duration HOUR = Duration.ofHours(1);

  public static final Setting<Duration> DRAIN_TIMEOUT =
      Setting.duration("shutdown.drain-timeout", DEFAULT_DRAIN_TIMEOUT, Duration.ZERO, HOUR)
          .about(
              "on SIGTERM, once the readiness delay is over, how long the requests in flight may"
                  + " take: the node refuses new client requests (503, `Connection: close`) but"
                  + " serves their modules' call backs, and closes its listeners when the last is"
                  + " answered or this has passed; connections still busy then are closed")
          .details(
              "The defaults (3 s of readiness delay, then at most 5 s) and the cluster leave fit"
                  + " Docker's default stop grace period (10 s); when raising them, give `docker"
                  + " stop -t`, compose's `stop_grace_period` or Kubernetes'"
                  + " `terminationGracePeriodSeconds` at least `shutdown.readiness-delay` +"
                  + " `shutdown.drain-timeout` + 5 s, or the node is killed mid-drain.");

  public static final Setting<Duration> READINESS_DELAY =
      Setting.duration("shutdown.readiness-delay", DEFAULT_READINESS_DELAY, Duration.ZERO, HOUR)
          .about(
              "on SIGTERM, how long the node goes on serving every request after `/readiness` and"
                  + " `/_/proxy/health` turned 503, every answer with `Connection: close`, before it"
                  + " refuses new client requests")
          .details(
              "Lets a load balancer's health check or Kubernetes' endpoints take the node out of"
                  + " rotation first: at least the checks' interval times their failure threshold."
                  + " The default covers checks every second, out after two failures; 0 where no"
                  + " load balancer sends the node requests (a stop then takes no longer than its"
                  + " requests in flight).");

  /** The {@code shutdown.*} settings. */
  public static final SettingsSpec SETTINGS = SettingsSpec.of(DRAIN_TIMEOUT, READINESS_DELAY);

  public DrainOptions {
    DRAIN_TIMEOUT.check(drainTimeout);
    READINESS_DELAY.check(readinessDelay);
  }

  /**
   * @return the defaults
   */
  public static DrainOptions defaults() {
    return new DrainOptions(DEFAULT_DRAIN_TIMEOUT, DEFAULT_READINESS_DELAY);
  }

  /**
   * Reads the {@code shutdown.*} settings.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static DrainOptions from(Settings settings) {
    return new DrainOptions(settings.get(DRAIN_TIMEOUT), settings.get(READINESS_DELAY));
  }

  /**
   * @return the longest a drain takes: the readiness delay and the drain timeout
   */
  public Duration longest() {
    return readinessDelay.plus(drainTimeout);
  }
}
