package io.okapigw.authtoken.throttle;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;
import java.util.Map;

/**
 * How logins are throttled ({@code login.*} settings), after FOLIO's mod-login: its {@code
 * login.fail.attempts} (5) failed logins of a user within {@code login.fail.timeout} (10 minutes)
 * lock the user, here for that long (mod-login deactivates the user until an administrator
 * reactivates it); the same for all users' failures from one client; and at most {@code
 * login.hash-queue} logins wait for their password check.
 *
 * @param failAttempts failed logins of a user that lock it; 0: no lock
 * @param failTimeout how long failures are remembered and a lock lasts
 * @param clientFailAttempts failed logins from one client that lock it; 0: no lock
 * @param hashQueue logins waiting for a password check, at most; more are answered 429
 */
public record LoginThrottleOptions(
    int failAttempts, Duration failTimeout, int clientFailAttempts, int hashQueue) {

  public static final Setting<Integer> FAIL_ATTEMPTS =
      Setting.integer("login.fail.attempts", 5, 0, 1_000)
          .about("failed logins of a user within `login.fail.timeout` that lock it; 0: none")
          .details("As FOLIO's mod-login (`login.fail.attempts`), but locked for a while only.");

  public static final Setting<Duration> FAIL_TIMEOUT =
      Setting.duration(
              "login.fail.timeout",
              Duration.ofMinutes(10),
              Duration.ofSeconds(1),
              Duration.ofDays(1))
          .about("how long failed logins count, and a lock lasts");

  public static final Setting<Integer> CLIENT_FAIL_ATTEMPTS =
      Setting.integer("login.fail.client-attempts", 100, 0, 1_000_000)
          .about(
              "failed logins from one client (`X-Okapi-request-ip`, else the peer) that lock it;"
                  + " 0: none");

  public static final Setting<Integer> HASH_QUEUE =
      Setting.integer("login.hash-queue", 1_000, 1, 100_000)
          .about("logins waiting for a password check, at most; more are answered 429")
          .details(
              "With `Retry-After`. About 1-2 minutes of checks at the default hash cost on 2"
                  + " cores: a login waiting longer would find its client gone.");

  /** The {@code login.*} settings, in documentation order. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(FAIL_ATTEMPTS, FAIL_TIMEOUT, CLIENT_FAIL_ATTEMPTS, HASH_QUEUE);

  /**
   * @throws IllegalArgumentException naming the setting out of range
   */
  public LoginThrottleOptions {
    FAIL_ATTEMPTS.check(failAttempts);
    FAIL_TIMEOUT.check(failTimeout);
    CLIENT_FAIL_ATTEMPTS.check(clientFailAttempts);
    HASH_QUEUE.check(hashQueue);
  }

  /**
   * @return the declared defaults
   */
  public static LoginThrottleOptions defaults() {
    return from(Settings.of(Map.of()));
  }

  /**
   * @param settings flags and conf file
   * @return the {@code login.*} settings, defaults for those not given
   */
  public static LoginThrottleOptions from(Settings settings) {
    return new LoginThrottleOptions(
        settings.get(FAIL_ATTEMPTS),
        settings.get(FAIL_TIMEOUT),
        settings.get(CLIENT_FAIL_ATTEMPTS),
        settings.get(HASH_QUEUE));
  }
}
