package io.okapigw.authtoken.throttle;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;
import java.util.Map;

/**
 * How logins are throttled ({@code login.*} settings). After FOLIO's mod-login, {@code
 * login.fail.attempts} (5) failed logins within {@code login.fail.timeout} (10 minutes) lock, here
 * for that long (mod-login deactivates the user until an administrator reactivates it), but one
 * user name from one client address, not the user everywhere; a user name everywhere at {@code
 * login.fail.user-attempts}, and a client address at {@code login.fail.client-attempts} failures
 * for user names that do not exist, for everyone but the user names that logged in from it within
 * {@code login.known-client-ttl}; at most {@code login.hash-queue} logins wait for their password
 * check. The client address is seen through {@code login.trusted-proxies} only.
 *
 * @param failAttempts failed logins of a user name from one client that lock that pair; 0: no lock
 * @param failTimeout how long failures are remembered and a lock lasts
 * @param clientFailAttempts failed logins for unknown user names from one client that lock it; 0:
 *     no lock
 * @param hashQueue logins waiting for a password check, at most; more are answered 429
 * @param userFailAttempts failed logins of a user name from any clients that lock it; 0: no lock
 * @param knownClientTtl how long a successful login keeps its user name logging in from that client
 *     while the client or the user name is locked; 0: never
 * @param trustedProxies peers whose forwarding headers are believed: addresses and CIDR blocks
 * @param proxyHeaders where they write the client's address
 */
public record LoginThrottleOptions(
    int failAttempts,
    Duration failTimeout,
    int clientFailAttempts,
    int hashQueue,
    int userFailAttempts,
    Duration knownClientTtl,
    String trustedProxies,
    ProxyHeaders proxyHeaders) {

  public static final Setting<Integer> FAIL_ATTEMPTS =
      Setting.integer("login.fail.attempts", 5, 0, 1_000)
          .about(
              "failed logins of a user name from one client within `login.fail.timeout` that lock"
                  + " that user name there; 0: none")
          .details(
              "As FOLIO's mod-login (`login.fail.attempts`), but for one client address, and for"
                  + " a while only.");

  public static final Setting<Duration> FAIL_TIMEOUT =
      Setting.duration(
              "login.fail.timeout",
              Duration.ofMinutes(10),
              Duration.ofSeconds(1),
              Duration.ofDays(1))
          .about("how long failed logins count, and a lock lasts");

  public static final Setting<Integer> USER_FAIL_ATTEMPTS =
      Setting.integer("login.fail.user-attempts", 30, 0, 1_000_000)
          .about(
              "failed logins of a user name from any clients that lock it for every client but"
                  + " those it logged in from (`login.known-client-ttl`); 0: none")
          .details("Keycloak's *Max login failures*, 30 by default too.");

  public static final Setting<Integer> CLIENT_FAIL_ATTEMPTS =
      Setting.integer("login.fail.client-attempts", 100, 0, 1_000_000)
          .about(
              "failed logins for user names that do not exist, from one client, that lock it for"
                  + " every user name but those that logged in from it (`login.known-client-ttl`);"
                  + " 0: none");

  public static final Setting<Duration> KNOWN_CLIENT_TTL =
      Setting.duration("login.known-client-ttl", Duration.ofDays(30), Duration.ZERO, null)
          .about(
              "how long a successful login keeps its user name logging in from that client"
                  + " address while the address or the user name is locked; 0: not at all");

  public static final Setting<Integer> HASH_QUEUE =
      Setting.integer("login.hash-queue", 1_000, 1, 100_000)
          .about("logins waiting for a password check, at most; more are answered 429")
          .details(
              "With `Retry-After`. About 1-2 minutes of checks at the default hash cost on 2"
                  + " cores: a login waiting longer would find its client gone.");

  public static final Setting<String> TRUSTED_PROXIES =
      Setting.text("login.trusted-proxies", "127.0.0.0/8,::1", "CIDRS")
          .check(
              ClientAddresses::isValid,
              "IP addresses and CIDR blocks separated by commas, or none",
              "addresses, CIDR blocks, `none`")
          .about(
              "the peers whose forwarding headers (`login.proxy-headers`) tell the client's"
                  + " address; any other peer is the client")
          .details(
              "Behind the gateway: its addresses (and a load balancer's in front of it). The"
                  + " default trusts this host only.");

  /** The {@code login.*} settings, in documentation order. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(
          FAIL_ATTEMPTS,
          FAIL_TIMEOUT,
          USER_FAIL_ATTEMPTS,
          CLIENT_FAIL_ATTEMPTS,
          KNOWN_CLIENT_TTL,
          HASH_QUEUE,
          TRUSTED_PROXIES,
          ProxyHeaders.PROXY_HEADERS);

  /**
   * @throws IllegalArgumentException naming the setting out of range
   */
  public LoginThrottleOptions {
    FAIL_ATTEMPTS.check(failAttempts);
    FAIL_TIMEOUT.check(failTimeout);
    CLIENT_FAIL_ATTEMPTS.check(clientFailAttempts);
    HASH_QUEUE.check(hashQueue);
    USER_FAIL_ATTEMPTS.check(userFailAttempts);
    KNOWN_CLIENT_TTL.check(knownClientTtl);
    TRUSTED_PROXIES.check(trustedProxies);
    ProxyHeaders.PROXY_HEADERS.check(proxyHeaders);
  }

  /**
   * The four settings of before, the others at their defaults.
   *
   * @throws IllegalArgumentException naming the setting out of range
   */
  public LoginThrottleOptions(
      int failAttempts, Duration failTimeout, int clientFailAttempts, int hashQueue) {
    this(
        failAttempts,
        failTimeout,
        clientFailAttempts,
        hashQueue,
        USER_FAIL_ATTEMPTS.defaultValue(),
        KNOWN_CLIENT_TTL.defaultValue(),
        TRUSTED_PROXIES.defaultValue(),
        ProxyHeaders.PROXY_HEADERS.defaultValue());
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
        settings.get(HASH_QUEUE),
        settings.get(USER_FAIL_ATTEMPTS),
        settings.get(KNOWN_CLIENT_TTL),
        settings.get(TRUSTED_PROXIES),
        settings.get(ProxyHeaders.PROXY_HEADERS));
  }

  /**
   * @param proxies {@code login.trusted-proxies}
   * @param headers {@code login.proxy-headers}
   * @return these, trusting other proxies
   */
  public LoginThrottleOptions withTrustedProxies(String proxies, ProxyHeaders headers) {
    return new LoginThrottleOptions(
        failAttempts,
        failTimeout,
        clientFailAttempts,
        hashQueue,
        userFailAttempts,
        knownClientTtl,
        proxies,
        headers);
  }
}
