package io.okapigw.core.config;

import io.okapigw.config.Settings;
import java.time.Duration;
import java.util.Set;

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

  public static final String TIMEOUT = "tenant.init-timeout";
  public static final String POLL_INTERVAL = "tenant.poll-interval";

  /** The setting keys. */
  public static final Set<String> KEYS = Set.of(TIMEOUT, POLL_INTERVAL);

  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(300);

  /** Each wait between polls of a job is this many times the last (Okapi's factor). */
  public static final double POLL_GROWTH = 1.25;

  /** The longest wait between two polls of a job (unless {@code pollInterval} is longer). */
  public static final Duration MAX_POLL_INTERVAL = Duration.ofSeconds(5);

  private static final Duration LONGEST = Duration.ofHours(24);

  public TenantInitOptions {
    if (timeout == null
        || timeout.isZero()
        || timeout.isNegative()
        || timeout.compareTo(LONGEST) > 0) {
      throw new IllegalArgumentException(TIMEOUT + " must be between 1ms and 24h, was " + timeout);
    }
    if (pollInterval == null
        || pollInterval.isZero()
        || pollInterval.isNegative()
        || pollInterval.compareTo(timeout) > 0) {
      throw new IllegalArgumentException(
          POLL_INTERVAL
              + " must be between 1ms and "
              + TIMEOUT
              + " ("
              + timeout.toMillis()
              + " ms), was "
              + pollInterval);
    }
  }

  /**
   * @return the defaults
   */
  public static TenantInitOptions defaults() {
    return new TenantInitOptions(DEFAULT_TIMEOUT, DEFAULT_POLL_INTERVAL);
  }

  static TenantInitOptions from(Settings settings) {
    return new TenantInitOptions(
        settings.duration(TIMEOUT, DEFAULT_TIMEOUT),
        settings.duration(POLL_INTERVAL, DEFAULT_POLL_INTERVAL));
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
