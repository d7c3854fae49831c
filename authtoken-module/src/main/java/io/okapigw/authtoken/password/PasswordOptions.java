package io.okapigw.authtoken.password;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.util.Map;

/**
 * What a password hash costs and how many are computed at once: the {@code
 * password-hash-iterations} and {@code password-hash-threads} settings, each declared here once.
 *
 * @param iterations PBKDF2-HMAC-SHA256 iterations for new password hashes
 * @param threads threads hashing passwords; more logins wait
 */
public record PasswordOptions(int iterations, int threads) {

  /** The lowest iteration count accepted: what benchmarks and tests use (a hash in ~0.3 ms). */
  public static final int MIN_ITERATIONS = 1_000;

  public static final Setting<Integer> ITERATIONS =
      Setting.integer("password-hash-iterations", 600_000, MIN_ITERATIONS, Integer.MAX_VALUE)
          .about("PBKDF2-HMAC-SHA256 iterations for new password hashes")
          .details("The default costs about 150-190 ms per login per core.");

  public static final Setting<Integer> THREADS =
      Setting.integer("password-hash-threads", Runtime.getRuntime().availableProcessors(), 1, 256)
          .shownDefault("cores")
          .about("threads hashing passwords; more logins wait, up to `login.hash-queue`");

  /** The two, in documentation order. */
  public static final SettingsSpec SETTINGS = SettingsSpec.of(ITERATIONS, THREADS);

  /**
   * @throws IllegalArgumentException naming the setting out of range
   */
  public PasswordOptions {
    ITERATIONS.check(iterations);
    THREADS.check(threads);
  }

  /**
   * @return the declared defaults
   */
  public static PasswordOptions defaults() {
    return from(Settings.of(Map.of()));
  }

  /**
   * @return the cheapest hashing accepted ({@link #MIN_ITERATIONS}), the default threads
   */
  public static PasswordOptions cheapest() {
    return defaults().withIterations(MIN_ITERATIONS);
  }

  /**
   * @param settings flags and conf file
   * @return the two settings, defaults for those not given
   * @throws IllegalArgumentException naming the bad setting
   */
  public static PasswordOptions from(Settings settings) {
    return new PasswordOptions(settings.get(ITERATIONS), settings.get(THREADS));
  }

  /**
   * @return these with another iteration count
   */
  public PasswordOptions withIterations(int newIterations) {
    return new PasswordOptions(newIterations, threads);
  }
}
