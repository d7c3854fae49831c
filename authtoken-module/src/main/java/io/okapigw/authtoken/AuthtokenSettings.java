package io.okapigw.authtoken;

import io.okapigw.authtoken.lookup.UserLookup;
import io.okapigw.authtoken.session.SameSite;
import io.okapigw.authtoken.throttle.LoginThrottleOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.function.Function;

/**
 * Every setting of the authtoken module, declared once with the {@code config} module, so flags and
 * a {@code -conf} file follow the gateway's rules. {@link AuthtokenOptions}' setters check their
 * values by these declarations; {@code --help} and the table in {@code docs/operations.md} are
 * generated from {@link #SPEC}.
 */
public final class AuthtokenSettings {

  public static final Setting<Integer> PORT =
      Setting.integer("port", AuthtokenOptions.DEFAULT_PORT, 0, 65535)
          .about("HTTP port; 0 picks a free one");

  public static final Setting<String> HOST =
      Setting.text("host", AuthtokenOptions.DEFAULT_HOST, "HOST")
          .check(s -> !s.isBlank(), "a host name or address")
          .about("bind address");

  public static final Setting<String> STORE =
      Setting.text("store", AuthtokenOptions.DEFAULT_STORE, "STORE")
          .check(
              s ->
                  s.startsWith("json:") && s.length() > 5
                      || s.startsWith("postgresql://")
                      || s.startsWith("postgres://"),
              "json:DIR or postgresql://user:pass@host:port/db")
          .about("where users, permissions and sessions live")
          .details(
              "`json:DIR`: the embedded JSON store, one instance. PostgreSQL: several instances"
                  + " share it.");

  public static final Setting<String> SIGNING_KEY_FILE =
      Setting.text("signing-key-file", AuthtokenOptions.DEFAULT_SIGNING_KEY_FILE, "FILE")
          .check(s -> !s.isBlank(), "a file path")
          .about(
              "HS256 key (base64, >= 256 bits, mode 600), created with a random 256-bit key if"
                  + " missing")
          .details("Instances sharing the file share the key.");

  public static final Setting<Duration> TOKEN_TTL =
      Setting.duration(
              "token-ttl",
              AuthtokenOptions.DEFAULT_TOKEN_TTL,
              Duration.ofSeconds(1),
              Duration.ofDays(1))
          .about("access (and module) token lifetime");

  public static final Setting<Duration> REFRESH_TTL =
      Setting.duration(
              "refresh-ttl",
              AuthtokenOptions.DEFAULT_REFRESH_TTL,
              Duration.ofSeconds(1),
              Duration.ofDays(365))
          .about("refresh token lifetime; at least `token-ttl`");

  public static final Setting<String> BOOTSTRAP =
      Setting.text("bootstrap", null, "T:USER:PASS:p1,p2")
          .repeatable()
          .about("create or update this user at every start; the password may contain `:`");

  public static final Setting<String> BOOTSTRAP_ENV =
      Setting.text("bootstrap-env", null, "T:USER:VAR:p1,p2")
          .repeatable()
          .about(
              "the same, the password read from the environment variable VAR, so it is on no"
                  + " command line")
          .details("VAR unset or empty: exit 2 naming it.");

  public static final Setting<String> GATEWAY_URL =
      Setting.text("gateway-url", null, "URL")
          .check(AuthtokenSettings::isHttpUrl, "an http(s) URL")
          .about("our gateway, to tell about auth-cache invalidations; none: skip them")
          .details("Leave it unset behind Okapi, which has no such endpoint.");

  public static final Setting<Duration> GATEWAY_TIMEOUT =
      Setting.duration(
              "gateway-timeout",
              AuthtokenOptions.DEFAULT_GATEWAY_TIMEOUT,
              Duration.ofMillis(1),
              Duration.ofSeconds(60))
          .about("wait at most this for the gateway's answer to an invalidation");

  public static final Setting<Duration> GATEWAY_RETRY_DELAY =
      Setting.duration(
              "gateway-retry-delay",
              AuthtokenOptions.DEFAULT_GATEWAY_RETRY_DELAY,
              Duration.ofMillis(1),
              Duration.ofDays(1))
          .about("first background retry of an invalidation after this; doubles, at most 30s");

  public static final Setting<Integer> GATEWAY_RETRIES =
      Setting.integer("gateway-retries", AuthtokenOptions.DEFAULT_GATEWAY_RETRIES, 0, 1000)
          .about("background retries per invalidation");

  public static final Setting<Integer> PASSWORD_HASH_ITERATIONS =
      Setting.integer(
              "password-hash-iterations",
              AuthtokenOptions.DEFAULT_PASSWORD_HASH_ITERATIONS,
              AuthtokenOptions.MIN_PASSWORD_HASH_ITERATIONS,
              Integer.MAX_VALUE)
          .about("PBKDF2-HMAC-SHA256 iterations for new password hashes")
          .details("The default costs about 150-190 ms per login per core.");

  public static final Setting<Integer> PASSWORD_HASH_THREADS =
      Setting.integer("password-hash-threads", Runtime.getRuntime().availableProcessors(), 1, 256)
          .shownDefault("cores")
          .about("threads hashing passwords; more logins wait, up to `login.hash-queue`");

  public static final Setting<Integer> MAX_TOKEN_LENGTH =
      Setting.integer("max-token-length", AuthtokenOptions.DEFAULT_MAX_TOKEN_LENGTH, 256, 16384)
          .about("longer tokens are refused with 401");

  public static final Setting<UserLookup> USER_LOOKUP =
      Setting.choice("user-lookup", UserLookup.LOCAL)
          .about(
              "where the filter finds a token's user and permissions: `local` (this module's store,"
                  + " cached) or `gateway` (mod-users and mod-permissions through the gateway on"
                  + " every decision, as FOLIO's mod-authtoken)")
          .details(
              "For measuring: [authtoken](authtoken.md#deciding-at-folios-cost---user-lookup-gateway).");

  public static final Setting<SameSite> COOKIE_SAME_SITE =
      Setting.choice("cookie-same-site", SameSite.LAX)
          .about(
              "`SameSite` of the `folioAccessToken` and `folioRefreshToken` cookies of"
                  + " `/authn/login-with-expiry` (mod-login's `LOGIN_COOKIE_SAMESITE`)")
          .details(
              "`none` lets a UI on another site send them (HTTPS only): see"
                  + " [Stripes in front of the gateway](operations.md#stripes-in-front-of-the-gateway).");

  /** The module's settings, in documentation order. */
  public static final SettingsSpec SPEC =
      SettingsSpec.of(
          PORT,
          HOST,
          STORE,
          SIGNING_KEY_FILE,
          TOKEN_TTL,
          REFRESH_TTL,
          BOOTSTRAP,
          BOOTSTRAP_ENV,
          GATEWAY_URL,
          GATEWAY_TIMEOUT,
          GATEWAY_RETRY_DELAY,
          GATEWAY_RETRIES,
          PASSWORD_HASH_ITERATIONS,
          PASSWORD_HASH_THREADS,
          MAX_TOKEN_LENGTH,
          USER_LOOKUP,
          COOKIE_SAME_SITE,
          LoginThrottleOptions.FAIL_ATTEMPTS,
          LoginThrottleOptions.FAIL_TIMEOUT,
          LoginThrottleOptions.CLIENT_FAIL_ATTEMPTS,
          LoginThrottleOptions.HASH_QUEUE);

  private AuthtokenSettings() {}

  /**
   * @param settings flags and conf file, unknown keys already refused
   * @param env the environment {@code bootstrap-env} reads passwords from
   * @return the options, validated
   * @throws IllegalArgumentException naming the bad setting (or unset variable)
   */
  static AuthtokenOptions read(Settings settings, Function<String, String> env) {
    AuthtokenOptions o =
        new AuthtokenOptions()
            .setPort(settings.get(PORT))
            .setHost(settings.get(HOST))
            .setStore(settings.get(STORE))
            .setSigningKeyFile(settings.get(SIGNING_KEY_FILE))
            .setTokenTtl(settings.get(TOKEN_TTL))
            .setRefreshTtl(settings.get(REFRESH_TTL))
            .setGatewayUrl(settings.get(GATEWAY_URL))
            .setGatewayTimeout(settings.get(GATEWAY_TIMEOUT))
            .setGatewayRetryDelay(settings.get(GATEWAY_RETRY_DELAY))
            .setGatewayRetries(settings.get(GATEWAY_RETRIES))
            .setPasswordHashIterations(settings.get(PASSWORD_HASH_ITERATIONS))
            .setPasswordHashThreads(settings.get(PASSWORD_HASH_THREADS))
            .setMaxTokenLength(settings.get(MAX_TOKEN_LENGTH))
            .setUserLookup(settings.get(USER_LOOKUP))
            .setCookieSameSite(settings.get(COOKIE_SAME_SITE))
            .setLoginThrottle(LoginThrottleOptions.from(settings));
    settings.getAll(BOOTSTRAP).forEach(spec -> o.addBootstrapUser(BootstrapUser.parse(spec)));
    settings
        .getAll(BOOTSTRAP_ENV)
        .forEach(spec -> o.addBootstrapUser(BootstrapUser.parseFromEnv(spec, env)));
    return o.validate();
  }

  private static boolean isHttpUrl(String url) {
    try {
      URI uri = new URI(url);
      return uri.getHost() != null
          && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()));
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
