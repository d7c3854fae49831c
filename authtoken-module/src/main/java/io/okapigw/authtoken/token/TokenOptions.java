package io.okapigw.authtoken.token;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;
import java.util.Map;

/**
 * How long the module's tokens live and how long a token may be: the {@code token-ttl}, {@code
 * refresh-ttl} and {@code max-token-length} settings, each declared here once.
 *
 * @param ttl access (and module) token lifetime
 * @param refreshTtl refresh token lifetime, not shorter than {@code ttl}
 * @param maxLength longest token accepted
 */
public record TokenOptions(Duration ttl, Duration refreshTtl, int maxLength) {

  public static final Setting<Duration> TTL =
      Setting.duration(
              "token-ttl", Duration.ofMinutes(10), Duration.ofSeconds(1), Duration.ofDays(1))
          .about("access (and module) token lifetime");

  public static final Setting<Duration> REFRESH_TTL =
      Setting.duration(
              "refresh-ttl", Duration.ofDays(7), Duration.ofSeconds(1), Duration.ofDays(365))
          .about("refresh token lifetime; at least `token-ttl`");

  public static final Setting<Integer> MAX_LENGTH =
      Setting.integer("max-token-length", 8192, 256, 16384)
          .about("longer tokens are refused with 401");

  /** The three, in documentation order. */
  public static final SettingsSpec SETTINGS = SettingsSpec.of(TTL, REFRESH_TTL, MAX_LENGTH);

  /**
   * @throws IllegalArgumentException naming the setting out of range, or {@code refresh-ttl}
   *     shorter than {@code token-ttl}
   */
  public TokenOptions {
    TTL.check(ttl);
    REFRESH_TTL.check(refreshTtl);
    MAX_LENGTH.check(maxLength);
    if (refreshTtl.compareTo(ttl) < 0) {
      throw new IllegalArgumentException(
          REFRESH_TTL.key()
              + " must not be shorter than "
              + TTL.key()
              + " ("
              + TTL.format(ttl)
              + "), was '"
              + REFRESH_TTL.format(refreshTtl)
              + "'");
    }
  }

  /**
   * @return the declared defaults
   */
  public static TokenOptions defaults() {
    return from(Settings.of(Map.of()));
  }

  /**
   * @param settings flags and conf file
   * @return the three settings, defaults for those not given
   * @throws IllegalArgumentException naming the bad setting
   */
  public static TokenOptions from(Settings settings) {
    return new TokenOptions(settings.get(TTL), settings.get(REFRESH_TTL), settings.get(MAX_LENGTH));
  }

  /**
   * @return these with another access token lifetime
   */
  public TokenOptions withTtl(Duration newTtl) {
    return new TokenOptions(newTtl, refreshTtl, maxLength);
  }
}
