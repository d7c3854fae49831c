package io.okapigw.core.tenantinit;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;

/**
 * How long the gateway waits for a module's {@code _tenant} call ({@code tenant.*} settings).
 *
 * @param timeout the longest one module's tenant operation may take: a synchronous {@code _tenant}
 *     call, or a {@code _tenant} 2.0 job from its POST to its completion; then the install fails
 *     naming the module (default 30 min: FOLIO modules loading reference data take minutes; Okapi
 *     waits without bound)
 * @param pollInterval the wait before the second poll of a {@code _tenant} 2.0 job (the first is at
 *     once); each next wait is {@value #POLL_GROWTH} times the last, at most {@link
 *     #MAX_POLL_INTERVAL} (default 300 ms, as Okapi)
 */
public record TenantInitOptions(Duration timeout, Duration pollInterval) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(300);

  /** Each wait between polls of a job is this many times the last (Okapi's factor). */
  public static final double POLL_GROWTH = 1.25;

  /** The longest wait between two polls of a job (unless {@code pollInterval} is longer). */
  public static final Duration MAX_POLL_INTERVAL = Duration.ofSeconds(5);

  private static final Duration LONGEST = Duration.ofHours(24);

  public static final Setting<Duration> TIMEOUT =
      Setting.duration("tenant.init-timeout", DEFAULT_TIMEOUT, Duration.ofMillis(1), LONGEST)
          .about(
              "longest one module's tenant operation may take: a `_tenant` call, or a `_tenant` 2.0"
                  + " job from its POST until it reports complete; past it the install fails with"
                  + " 504 naming the module")
          .details(
              "The module is not enabled; its job is left to it. FOLIO storage modules loading"
                  + " reference data take minutes; Okapi waits without bound. Also how long a"
                  + " change waits for the same tenant's running install (then 409).");

  public static final Setting<Duration> POLL_INTERVAL =
      Setting.duration("tenant.poll-interval", DEFAULT_POLL_INTERVAL, Duration.ofMillis(1), LONGEST)
          .about(
              "wait before the second poll of a `_tenant` 2.0 job (the first is at once); each next"
                  + " wait is 1.25 times the last, at most 5s, as Okapi polls; at most"
                  + " `tenant.init-timeout`");

  /** The {@code tenant.*} settings. */
  public static final SettingsSpec SETTINGS = SettingsSpec.of(TIMEOUT, POLL_INTERVAL);

  public TenantInitOptions {
    TIMEOUT.check(timeout);
    POLL_INTERVAL.check(pollInterval);
    if (pollInterval.compareTo(timeout) > 0) {
      throw new IllegalArgumentException(
          POLL_INTERVAL.key()
              + " must be at most "
              + TIMEOUT.key()
              + " ("
              + TIMEOUT.format(timeout)
              + "), was '"
              + POLL_INTERVAL.format(pollInterval)
              + "'");
    }
  }

  /**
   * @return the defaults
   */
  public static TenantInitOptions defaults() {
    return new TenantInitOptions(DEFAULT_TIMEOUT, DEFAULT_POLL_INTERVAL);
  }

  /**
   * Reads these settings.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static TenantInitOptions from(Settings settings) {
    return new TenantInitOptions(settings.get(TIMEOUT), settings.get(POLL_INTERVAL));
  }

  /**
   * @return the wait after {@code last}
   */
  public Duration nextPollInterval(Duration last) {
    long next = (long) (last.toMillis() * POLL_GROWTH);
    long cap = Math.max(MAX_POLL_INTERVAL.toMillis(), pollInterval.toMillis());
    return Duration.ofMillis(Math.max(1, Math.min(next, cap)));
  }
}
