package io.okapigw.core.server;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;

/**
 * How a node drains when it is told to stop (SIGTERM: {@code docker stop}, Kubernetes, systemd):
 * readiness turns false at once, then after {@code readinessDelay} the listeners close and the
 * requests in flight get up to {@code drainTimeout} to finish ({@code shutdown.*} settings).
 *
 * @param drainTimeout how long requests in flight may take to finish once the listeners are closed;
 *     connections still busy then are closed (default 8 s: with the cluster leave it fits Docker's
 *     default 10 s stop grace period)
 * @param readinessDelay how long the node goes on serving after readiness turned false, every
 *     answer with {@code Connection: close}, so that a load balancer or Kubernetes takes it out of
 *     rotation before its listeners close (default 0)
 */
public record DrainOptions(Duration drainTimeout, Duration readinessDelay) {

  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(8);
  private static final Duration HOUR = Duration.ofHours(1);

  public static final Setting<Duration> DRAIN_TIMEOUT =
      Setting.duration("shutdown.drain-timeout", DEFAULT_DRAIN_TIMEOUT, Duration.ZERO, HOUR)
          .about(
              "on SIGTERM, how long requests in flight may take to finish once the listeners are"
                  + " closed; connections still busy then are closed")
          .details(
              "The default fits Docker's default stop grace period (10 s) with the cluster leave;"
                  + " give `docker stop -t`, compose's `stop_grace_period` or Kubernetes'"
                  + " `terminationGracePeriodSeconds` at least `shutdown.readiness-delay` +"
                  + " `shutdown.drain-timeout` + 5 s, or the node is killed mid-drain.");

  public static final Setting<Duration> READINESS_DELAY =
      Setting.duration("shutdown.readiness-delay", Duration.ZERO, Duration.ZERO, HOUR)
          .about(
              "on SIGTERM, how long the node goes on serving after `/readiness` and"
                  + " `/_/proxy/health` turned 503, every answer with `Connection: close`, before"
                  + " its listeners close")
          .details(
              "Lets a load balancer's health check or Kubernetes' endpoints take the node out of"
                  + " rotation first: set it to the checks' interval times their failure"
                  + " threshold (Kubernetes: a few seconds).");

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
    return new DrainOptions(DEFAULT_DRAIN_TIMEOUT, Duration.ZERO);
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
